import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { firmwareFileKey } from "./firmware.jobs";

// Software rules through the HTTP API, their files served by a loopback HTTP server: every status
// of spec section 4, a refused connection and a server that answers too slowly.

const TIMEOUT_MS = 400;
/** 3 MB in 64 KB pieces: more than one read, never built whole by the server under test. */
const PIECE = Buffer.alloc(64 * 1024, 7);
const PIECES = 48;
const SHA256 = (() => {
  const hash = createHash("sha256");
  for (let i = 0; i < PIECES; i += 1) hash.update(PIECE);
  return hash.digest("hex");
})();

function firmwareServer(): Server {
  return createServer((request, response) => {
    const path = request.url ?? "/";
    const code = /^\/status\/(\d+)/.exec(path);
    if (code) {
      response.writeHead(Number(code[1]), { "content-type": "text/plain" }).end("no");
    } else if (path.startsWith("/silent/")) {
      // Never answers: the fetch's timeout ends it.
    } else if (path.startsWith("/stall/")) {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.write(PIECE);
      // Then nothing more.
    } else if (path.startsWith("/fw/")) {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      let sent = 0;
      const next = () => {
        while (sent < PIECES) {
          sent += 1;
          if (!response.write(PIECE)) return void response.once("drain", next);
        }
        response.end();
      };
      next();
    } else {
      response.writeHead(404).end();
    }
  });
}

describe("software rules (POST /api/firmwares, /api/software/…)", () => {
  let t: TestApp;
  let server: Server;
  let base: string;
  let refusedUrl: string;
  let root: string;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({
      runJobs: false,
      config: { firmwareFetch: { timeoutMs: TIMEOUT_MS, maxBytes: 8 << 20 } },
    });
    server = firmwareServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A port that was just free: nothing listens there, so the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/RUT_x.bin`;
    await new Promise((resolve) => closed.close(resolve));
    root = await signIn(t.app, await buildUser(t, { role: 1 }));
    admin = await signIn(t.app, await buildUser(t, { role: 2 }));
  }, 60_000);
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await t.close();
  });

  const post = (token: string | null, url: string, payload?: unknown) =>
    t.app.inject({ method: "POST", url, headers: token ? { token } : {}, payload: payload ?? {} });

  async function createRule(url: string, models = ["RUT955"]) {
    const created = await post(root, "/api/software/new", { name: `rule ${url}`, url, models });
    expect(created.statusCode, created.body).toBe(200);
    return created.json() as { _id: string; status: number };
  }

  async function fetched(id: string) {
    await t.jobs.runUntilIdle();
    const answer = await post(root, `/api/software/${id}`);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  }

  it("fetches the file into storage: Ready, its size and SHA-256, series from the URL", async () => {
    const rule = await createRule(`${base}/fw/RUT9_R_00.07.06.bin`, ["RUT955", "RUT950", "RUT955"]);
    expect(rule.status).toBe(0);
    const ready = await fetched(rule._id);
    expect(ready).toMatchObject({
      status: 2,
      error: null,
      series: "RUT9",
      models: ["RUT955", "RUT950"],
      file: { filename: "RUT9_R_00.07.06.bin", size: PIECE.length * PIECES, sha256: SHA256 },
    });
    expect(ready.sync_time).toBe(t.clock.now().getTime());
    const download = await t.app.inject({
      method: "GET",
      url: `/api/software/${rule._id}/file`,
      headers: { token: root },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toContain("RUT9_R_00.07.06.bin");
    expect(createHash("sha256").update(download.rawPayload).digest("hex")).toBe(SHA256);
    const list = await post(root, "/api/firmwares");
    expect(list.json().items.map((item: { _id: string }) => item._id)).toContain(rule._id);
  });

  it.each([
    [404, 404],
    [415, 415],
    [422, 422],
    [500, 500],
  ])("an answer %i becomes status %i with no file", async (code, status) => {
    const rule = await createRule(`${base}/status/${code}/RUT2_R.bin`);
    expect(await fetched(rule._id)).toMatchObject({ status, file: null, sync_time: null });
  });

  it("a refused connection is Error 240, said why", async () => {
    const rule = await createRule(refusedUrl);
    const answer = await fetched(rule._id);
    expect(answer).toMatchObject({ status: 240, file: null });
    expect(answer.error).toContain("ECONNREFUSED");
  });

  it("a server silent before its headers, or stalling mid-file, times out as Error 240; nothing half-stored", async () => {
    const silent = await createRule(`${base}/silent/RUT9_a.bin`);
    const stalled = await createRule(`${base}/stall/RUT9_b.bin`);
    const started = Date.now();
    const running = t.jobs.runUntilIdle();
    // Mid-file the rule is Accepted: the server answered 200 and the bytes are coming.
    await expect.poll(async () => (await post(root, `/api/software/${stalled._id}`)).json().status).toBe(1);
    await running;
    const [a, b] = [await fetched(silent._id), await fetched(stalled._id)];
    expect(Date.now() - started).toBeLessThan(20 * TIMEOUT_MS);
    for (const answer of [a, b]) {
      expect(answer).toMatchObject({ status: 240, file: null });
      expect(answer.error).toContain("No answer from the server");
    }
    expect(await t.storage.exists(firmwareFileKey(stalled._id, 1))).toBe(false);
  });

  it("a new URL fetches again and drops the old file; delete drops the rule and its file", async () => {
    const rule = await createRule(`${base}/fw/RUTX_R_1.bin`);
    expect((await fetched(rule._id)).status).toBe(2);
    const oldKey = firmwareFileKey(rule._id, 1);
    expect(await t.storage.exists(oldKey)).toBe(true);
    const saved = await post(root, `/api/software/${rule._id}/save`, {
      name: "renamed",
      url: `${base}/fw/RUTX_R_2.bin`,
      models: ["RUTX11"],
    });
    expect(saved.json()).toMatchObject({ status: 0, name: "renamed", series: "RUTX" });
    expect((await fetched(rule._id)).file.filename).toBe("RUTX_R_2.bin");
    expect(await t.storage.exists(oldKey)).toBe(false);
    // Renaming alone does not fetch.
    await post(root, `/api/software/${rule._id}/save`, {
      name: "again",
      url: `${base}/fw/RUTX_R_2.bin`,
      models: ["RUTX11"],
    });
    expect((await post(root, `/api/software/${rule._id}`)).json().status).toBe(2);
    const sync = await post(root, `/api/software/${rule._id}/sync`);
    expect(sync.json().status).toBe(0);
    expect((await fetched(rule._id)).status).toBe(2);
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/software/${rule._id}`,
      headers: { token: root },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await t.jobs.runUntilIdle();
    expect(await t.storage.exists(firmwareFileKey(rule._id, 3))).toBe(false);
    expect((await post(root, `/api/software/${rule._id}`)).statusCode).toBe(404);
  });

  it("refuses: anonymous 401, an admin 403, bad input 400, an unknown rule 404", async () => {
    expect((await post(null, "/api/firmwares")).statusCode).toBe(401);
    const forbidden = await post(admin, "/api/software/new", {
      name: "x",
      url: `${base}/fw/a.bin`,
      models: ["m"],
    });
    expect(forbidden.statusCode).toBe(403);
    expect((await post(admin, "/api/firmwares")).statusCode).toBe(403);
    for (const body of [
      { name: "x", url: "ftp://example.com/a.bin", models: ["m"] },
      { name: "x", url: "not a url", models: ["m"] },
      { name: "", url: `${base}/fw/a.bin`, models: ["m"] },
      { name: "x", url: `${base}/fw/a.bin`, models: [] },
    ]) {
      const refused = await post(root, "/api/software/new", body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().code).toBeTypeOf("string");
    }
    const missing = await post(root, "/api/software/00000000-0000-4000-8000-000000000000");
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe("RULE_NOT_FOUND");
    const noFile = await createRule(`${base}/status/404/a.bin`);
    await t.jobs.runUntilIdle();
    const download = await t.app.inject({
      method: "GET",
      url: `/api/software/${noFile._id}/file`,
      headers: { token: root },
    });
    expect(download.json().code).toBe("FILE_NOT_FOUND");
  });
});
