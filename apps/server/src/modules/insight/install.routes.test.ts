import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentInstallLink } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { callApi } from "../devices/devices.test-support";
import { AGENT_DIR, fillInstallScript, INSTALL_LINK_TTL_MS, installBroker } from "./install.service";

// The agent's one-line install (ADR 034): who may make a router's link, what the link serves and
// how often, what the generic script holds (no secret), and the package it installs.

const KEY = "0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF";

let t: TestApp;
let domainId: string;
let admin: { username: string; password: string };
let assistant: { username: string; password: string };
let operator: { username: string; password: string };
let device: { id: string; ident: string };

const as = async (who: { username: string; password: string } | string | null, url: string) =>
  callApi(t, who === null || typeof who === "string" ? who : await signIn(t.app, who), "POST", url, {});
const fetchScript = (token?: string) =>
  t.app.inject({
    method: "GET",
    url: `/api/agent/install.sh${token === undefined ? "" : `?token=${token}`}`,
  });
const tokenOf = (link: AgentInstallLink) => new URL(link.url).searchParams.get("token") as string;

beforeAll(async () => {
  t = await createTestApp({ runJobs: false, config: { publicUrl: "https://fleet.example.com" } });
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  assistant = await buildUser(t, { role: 3, domainId });
  operator = await buildUser(t, { role: 4, domainId });
  device = await buildDevice(t, domainId, { aes_key: KEY });
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/device/{dev_id}/install", () => {
  it("is refused without a session, to an operator (who may not hand out a key), the demo user and another domain", async () => {
    expect((await as(null, `/api/device/${device.id}/install`)).status).toBe(401);
    const refused = await as(operator, `/api/device/${device.id}/install`);
    expect([refused.status, refused.body.code]).toEqual([403, "PERMISSION_DENIED"]);
    const demo = await as(await signInDemo(t.app), `/api/device/${device.id}/install`);
    expect(demo.status).toBe(403);
    const stranger = await buildUser(t, { role: 2, domainId: (await buildDomain(t)).id });
    const foreign = await as(stranger, `/api/device/${device.id}/install`);
    expect([foreign.status, foreign.body.code]).toEqual([404, "DEVICE_NOT_FOUND"]);
    expect(await t.db.selectFrom("agent_install_tokens").select("token_hash").execute()).toEqual([]);
  });

  it("answers a one-line command whose link serves the script with the router's ident and key, once", async () => {
    const { status, body } = await as(assistant, `/api/device/${device.id}/install`);
    expect(status).toBe(200);
    const link = body as AgentInstallLink;
    expect(link.command).toBe(`wget -qO- '${link.url}' | sh`);
    expect(link.url).toMatch(
      /^https:\/\/fleet\.example\.com\/api\/agent\/install\.sh\?token=[A-Za-z0-9_-]{32}$/,
    );
    expect(link.generic_command).toBe(
      `wget -qO- 'https://fleet.example.com/api/agent/install.sh' | sh -s -- ${device.ident} KEY`,
    );
    expect(link.expires_at).toBe(t.clock.now().getTime() + INSTALL_LINK_TTL_MS);
    expect(link.is_key_made).toBe(false);
    // The answer never holds the key, and the database holds only the token's hash.
    expect(JSON.stringify(body)).not.toContain(KEY);
    const [row] = await t.db.selectFrom("agent_install_tokens").selectAll().execute();
    expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.token_hash).not.toContain(tokenOf(link));

    const served = await fetchScript(tokenOf(link));
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toMatch(/^text\/x-shellscript/);
    expect(served.headers["cache-control"]).toBe("no-store");
    expect(served.body).toContain("CONSOLE_URL='https://fleet.example.com'\n");
    expect(served.body).toContain("BROKER='mqtt://fleet.example.com:1883'\n");
    expect(served.body).toContain(`IDENT='${device.ident}'\n`);
    expect(served.body).toContain(`KEY='${KEY}'\n`);

    const again = await fetchScript(tokenOf(link));
    expect([again.statusCode, again.json().code]).toEqual([401, "TOKEN_INVALID"]);
    expect(again.body).not.toContain(KEY);
  });

  it("serves a link once when two routers fetch it at the same moment", async () => {
    const link = (await as(admin, `/api/device/${device.id}/install`)).body as AgentInstallLink;
    const answers = await Promise.all([fetchScript(tokenOf(link)), fetchScript(tokenOf(link))]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 401]);
  });

  it("records the router's fetch in the audit log under the user who made the link", async () => {
    const user = await buildUser(t, { role: 2, domainId });
    const link = (await as(user, `/api/device/${device.id}/install`)).body as AgentInstallLink;
    await fetchScript(tokenOf(link));
    await t.app.auditLog.settle();
    const entries = await t.db
      .selectFrom("web_actions")
      .select(["action", "status", "author", "kind", "object"])
      .where("domain_id", "=", domainId)
      .where("author", "=", user.username)
      .execute();
    expect(entries.map((entry) => entry.action).sort()).toEqual(["GET_agent", "POST_device", "POST_login"]);
    expect(entries.every((entry) => entry.status === "SUCCESS")).toBe(true);
    // In words, naming the router both times (issue 27 item 14).
    const worded = entries.filter((entry) => entry.action !== "POST_login");
    expect(worded.map((entry) => [entry.kind, entry.object?.id, entry.object?.name]).sort()).toEqual([
      ["device.installLink", device.id, device.ident],
      ["device.installUsed", device.id, device.ident],
    ]);
  });

  it("refuses an expired link with TOKEN_HAS_EXPIRED, an unknown one with TOKEN_INVALID, a malformed one with BAD_REQUEST", async () => {
    const link = (await as(admin, `/api/device/${device.id}/install`)).body as AgentInstallLink;
    t.clock.advance(INSTALL_LINK_TTL_MS + 1);
    const expired = await fetchScript(tokenOf(link));
    expect([expired.statusCode, expired.json().code]).toEqual([401, "TOKEN_HAS_EXPIRED"]);
    const unknown = await fetchScript("A".repeat(32));
    expect([unknown.statusCode, unknown.json().code]).toEqual([401, "TOKEN_INVALID"]);
    for (const bad of ["short", `${"A".repeat(32)}'`, "A".repeat(33)]) {
      const refused = await fetchScript(encodeURIComponent(bad));
      expect([refused.statusCode, refused.json().code]).toEqual([400, "BAD_REQUEST"]);
    }
  });

  it("gives a router without a key a new one first, so the link can carry it", async () => {
    const keyless = await buildDevice(t, domainId);
    const link = (await as(admin, `/api/device/${keyless.id}/install`)).body as AgentInstallLink;
    expect(link.is_key_made).toBe(true);
    const { aes_key } = await t.db
      .selectFrom("devices")
      .select("aes_key")
      .where("id", "=", keyless.id)
      .executeTakeFirstOrThrow();
    expect(aes_key).toMatch(/^[0-9A-F]{64}$/);
    expect((await fetchScript(tokenOf(link))).body).toContain(`KEY='${aes_key}'`);
  });
});

describe("GET /api/agent/install.sh without a link", () => {
  it("holds the console's and the broker's addresses and no router's ident or key", async () => {
    const served = await fetchScript();
    expect(served.statusCode).toBe(200);
    expect(served.body).toContain("CONSOLE_URL='https://fleet.example.com'\n");
    expect(served.body).toContain("IDENT=''\n");
    expect(served.body).toContain("KEY=''\n");
    expect(served.body).not.toMatch(/[0-9A-Fa-f]{64}/);
  });

  it("refuses to run without an ident and key, and with a key that is not 64 hex characters", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "cellfleet-install-"));
    const script = path.join(dir, "install.sh");
    writeFileSync(
      script,
      fillInstallScript(execFileSync("cat", [path.join(AGENT_DIR, "install.sh")], { encoding: "utf8" }), {
        CONSOLE_URL: "http://127.0.0.1:9",
        BROKER: "mqtt://127.0.0.1:9",
      }),
    );
    const run =
      (...args: string[]) =>
      () =>
        execFileSync("busybox", ["sh", script, ...args], { stdio: "pipe" });
    expect(run()).toThrow(/no ident and key/);
    expect(run("RUT1", "1234")).toThrow(/64 hexadecimal/);
    expect(run("RUT1", `${"G".repeat(64)}`)).toThrow(/64 hexadecimal/);
  });

  it("passes shellcheck as POSIX sh", () => {
    expect(() =>
      execFileSync("shellcheck", ["-s", "sh", "install.sh"], { cwd: AGENT_DIR, encoding: "utf8" }),
    ).not.toThrow();
  });
});

describe("the script's values", () => {
  it("are single-quoted, so a quote in one is not shell syntax", () => {
    expect(fillInstallScript("A=''\nB=''\nC=''\n", { A: "it's", B: "$(reboot)" })).toBe(
      "A='it'\\''s'\nB='$(reboot)'\nC=''\n",
    );
  });

  it("set the agent to the first TLS broker when there is one", () => {
    const plain = { url: "mqtt://h:1883", is_tls: false, host: "h", port: 1883 };
    const tls = { url: "mqtts://h:8883", is_tls: true, host: "h", port: 8883 };
    expect(installBroker([plain, tls])).toBe(tls);
    expect(installBroker([plain])).toBe(plain);
  });
});

describe("GET /api/agent/cellfleet-agent.ipk", () => {
  it("serves the agent's package to anyone (it holds no secret), built from agents/openwrt", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/agent/cellfleet-agent.ipk" });
    expect(response.statusCode).toBe(200);
    const bytes = response.rawPayload;
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    expect(bytes.length).toBeLessThanOrEqual(40_000);
    const dir = mkdtempSync(path.join(tmpdir(), "cellfleet-ipk-"));
    writeFileSync(path.join(dir, "agent.ipk"), bytes);
    const data = execFileSync("sh", ["-c", `tar -xOzf "${dir}/agent.ipk" ./data.tar.gz | tar -tz`], {
      encoding: "utf8",
    });
    expect(data).toContain("./usr/lib/cellfleet/agent.sh");
  });
});
