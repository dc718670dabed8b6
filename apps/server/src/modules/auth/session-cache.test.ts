import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { SessionCache, type SessionRecords } from "./session-cache";

const records = { session: { id: "s" }, user: { id: "u" }, policy: {} } as unknown as SessionRecords;

describe("SessionCache", () => {
  it("keeps what it is given under the stamp it is at", () => {
    const cache = new SessionCache(60_000);
    cache.set("hash", cache.stamp, records);
    expect(cache.get("hash")).toBe(records);
    expect(cache.get("other")).toBeUndefined();
  });

  it("discards a read that started before a clear", () => {
    const cache = new SessionCache(60_000);
    const stamp = cache.stamp;
    cache.clear();
    cache.set("hash", stamp, records);
    expect(cache.get("hash")).toBeUndefined();
  });

  it("forgets everything on clear, and nothing is kept with a TTL of 0", () => {
    const cache = new SessionCache(60_000);
    cache.set("hash", cache.stamp, records);
    cache.clear();
    expect(cache.get("hash")).toBeUndefined();
    const off = new SessionCache(0);
    off.set("hash", off.stamp, records);
    expect(off.get("hash")).toBeUndefined();
  });

  it("stays within its bound, dropping the least recently used token rather than every one", () => {
    const cache = new SessionCache(60_000, 2);
    cache.set("a", cache.stamp, records);
    cache.set("b", cache.stamp, records);
    expect(cache.get("a")).toBe(records);
    cache.set("c", cache.stamp, records);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(records);
    expect(cache.get("c")).toBe(records);
  });

  it("forgets a token's records once the TTL has passed", async () => {
    const cache = new SessionCache(50);
    cache.set("hash", cache.stamp, records);
    expect(cache.get("hash")).toBe(records);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cache.get("hash")).toBeUndefined();
  });
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const self = (token: string) => callApi(t.app, "POST", "/api/accounting/self", token);

describe("resolving sessions through the cache", () => {
  it("reuses a token's rows until a saving call clears them", async () => {
    const admin = await buildUser(t, { role: 2 });
    const person = await buildUser(t, { role: 4, domainId: admin.domainId ?? undefined });
    const adminToken = await signIn(t.app, admin);
    const token = await signIn(t.app, person);
    expect((await self(token)).status).toBe(200);
    // A write that bypasses the server is not seen while the rows are cached…
    await t.db.updateTable("users").set({ blocked: true }).where("id", "=", person.id).execute();
    expect((await self(token)).status).toBe(200);
    // …and is seen as soon as any saving call goes through the server.
    const saved = await callApi(t.app, "POST", `/api/user/${admin.id}`, adminToken, { full_name: "Admin" });
    expect(saved.status, saved.text).toBe(200);
    expect((await self(token)).body.code).toBe("USER_BLOCKED");
  });

  it("is kept by calls that write no accounts (the broker's auth hook), cleared by a sign-in", async () => {
    const person = await buildUser(t, { role: 4 });
    const token = await signIn(t.app, person);
    expect((await self(token)).status).toBe(200);
    await t.db.updateTable("users").set({ blocked: true }).where("id", "=", person.id).execute();
    const hook = await t.app.inject({ method: "POST", url: "/api/mqtt/auth", payload: {} });
    expect(hook.statusCode).toBeGreaterThanOrEqual(400);
    expect((await self(token)).status).toBe(200);
    await signIn(t.app, await buildUser(t, { role: 4 }));
    expect((await self(token)).body.code).toBe("USER_BLOCKED");
  });

  it("refuses a warm token at once after an admin blocks its user", async () => {
    const admin = await buildUser(t, { role: 2 });
    const person = await buildUser(t, { role: 4, domainId: admin.domainId ?? undefined });
    const adminToken = await signIn(t.app, admin);
    const token = await signIn(t.app, person);
    expect((await self(token)).status).toBe(200);
    const blocked = await callApi(t.app, "POST", `/api/user/${person.id}`, adminToken, { blocked: true });
    expect(blocked.status, blocked.text).toBe(200);
    // Blocking ends the user's sessions, so the token itself is no longer valid.
    const answer = await self(token);
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe("TOKEN_INVALID");
  });

  it("refuses a warm token at once after logout", async () => {
    const person = await buildUser(t, { role: 4 });
    const token = await signIn(t.app, person);
    expect((await self(token)).status).toBe(200);
    expect((await callApi(t.app, "POST", "/api/logout/", token)).status).toBe(200);
    expect((await self(token)).body.code).toBe("TOKEN_INVALID");
  });

  it("still judges expiry against the clock for a cached session", async () => {
    const person = await buildUser(t, {
      role: 4,
      passwordExpireDate: new Date(t.clock.now().getTime() + 60_000),
    });
    const token = await signIn(t.app, person);
    expect((await self(token)).status).toBe(200);
    t.clock.advanceMinutes(2);
    expect((await self(token)).body.code).toBe("PASSWORD_EXPIRED");
  });
});
