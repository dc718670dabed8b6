import http from "node:http";
import { connect } from "node:net";
import type { WebTunnelOpen } from "@cellfleet/contract";
import { expect } from "vitest";
import type { ActionsFixture } from "../actions/actions.test-support";

// A browser on a web session's own origin, for the web-interface tests: it keeps the cookies the
// origin sets (one jar for the host, whatever the port, as a browser does) and follows nothing itself.

/** One answer: status, headers and body. */
export interface WebAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A browser's cookie jar and requests, sent to `address` (host:port) with `host` as the Host header. */
export interface TestBrowser {
  cookies: Map<string, string>;
  request(path: string, options?: { method?: string; form?: Record<string, string> }): Promise<WebAnswer>;
}

/** POST /api/tunnel/{id}/web as `token`, asserting 200 and an open session. */
export async function openWebSession(
  f: ActionsFixture,
  token: string,
  id: string,
): Promise<Extract<WebTunnelOpen, { state: "open" }>> {
  const response = await f.post(token, `/api/tunnel/${id}/web`);
  expect(response.statusCode, response.body).toBe(200);
  const answer = response.json<WebTunnelOpen>();
  if (answer.state !== "open") throw new Error(`the web session did not open: ${response.body}`);
  return answer;
}

/** A browser that reaches the origin at `address` ("127.0.0.1:port"), naming `host` in each request. */
export function testBrowser(address: string, host = address): TestBrowser {
  const cookies = new Map<string, string>();
  const [hostname, port] = address.split(":");
  return {
    cookies,
    request(path, options = {}) {
      const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
      const headers: http.OutgoingHttpHeaders = { host };
      if (cookies.size > 0)
        headers.cookie = [...cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      if (body) headers["content-type"] = "application/x-www-form-urlencoded";
      return new Promise((resolve, reject) => {
        const request = http.request(
          { hostname, port: Number(port), path, method: options.method ?? "GET", headers },
          (response) => {
            for (const line of response.headers["set-cookie"] ?? []) {
              const [pair = ""] = line.split(";");
              const at = pair.indexOf("=");
              cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
            }
            const chunks: Buffer[] = [];
            response.on("data", (chunk: Buffer) => chunks.push(chunk));
            response.on("end", () =>
              resolve({
                status: response.statusCode ?? 0,
                headers: response.headers,
                body: Buffer.concat(chunks).toString("utf8"),
              }),
            );
            response.on("error", reject);
          },
        );
        request.on("error", reject);
        request.end(body);
      });
    },
  };
}

/** The path and query of a session link. */
export const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

/** Follows the link, then signs in to the simulated router's UI as root. */
export async function signIn(browser: TestBrowser, url: string) {
  const entered = await browser.request(pathOf(url));
  expect(entered.status).toBe(302);
  expect((await browser.request("/")).headers.location).toBe("/login");
  expect((await browser.request("/login")).body).toContain("Sign in");
  const signedIn = await browser.request("/login", {
    method: "POST",
    form: { username: "root", password: "admin" },
  });
  expect(signedIn.status).toBe(303);
  return signedIn;
}

export const expectNotFound = (answer: { status: number; body: string }) => {
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.body)).toMatchObject({ code: "ATUN_SRV_NOT_FOUND" });
};

/**
 * Upgrades a connection to the simulated router's `/echo` at `address` ("127.0.0.1:port") naming
 * `host`, with `cookie` (or none), and sends "ping-42": everything that came back.
 */
export function upgradeEcho(address: string, host: string, cookie: string | null): Promise<string> {
  const [hostname = "", port] = address.split(":");
  return new Promise<string>((resolve) => {
    const socket = connect(Number(port), hostname);
    let seen = "";
    socket.on("data", (chunk) => {
      seen += chunk.toString();
      if (seen.includes("\r\n\r\n") && !seen.includes("ping-42")) socket.write("ping-42");
      if (seen.includes("ping-42") || seen.startsWith("HTTP/1.1 404")) {
        socket.destroy();
        resolve(seen);
      }
    });
    socket.on("close", () => resolve(seen));
    const lines = ["GET /echo HTTP/1.1", `Host: ${host}`, "Connection: Upgrade"];
    lines.push("Upgrade: echo", ...(cookie !== null ? [`Cookie: ${cookie}`] : []));
    socket.write(`${lines.join("\r\n")}\r\n\r\n`);
  });
}
