import type { AddressInfo } from "node:net";
import type { FleetEvent } from "@cellfleet/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, buildEvent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";

let t: TestApp;
let domainId: string;
let otherDomainId: string;
const tokens = { admin: "", operator: "", root: "", other: "", demo: "" };
let socketUrl: string;
const openSockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
  domainId = (await buildDomain(t)).id;
  otherDomainId = (await buildDomain(t)).id;
  tokens.admin = await signIn(t.app, await buildUser(t, { role: 2, domainId }));
  tokens.operator = await signIn(t.app, await buildUser(t, { role: 4, domainId }));
  tokens.root = await signIn(t.app, await buildUser(t, { role: 1 }));
  tokens.other = await signIn(t.app, await buildUser(t, { role: 3, domainId: otherDomainId }));
  tokens.demo = await signInDemo(t.app);
});
afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await t?.close();
});

async function post(token: string | null, url: string, payload: unknown = {}) {
  const response = await t.app.inject({
    method: "POST",
    url,
    headers: token ? { token } : {},
    payload: payload as object,
  });
  return response;
}

function lines(body: string): FleetEvent[] {
  return body
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
}

describe("access", () => {
  const routes = ["/api/events/all", "/api/events/read", "/api/events/unread", "/api/events/some-device"];

  it.each(routes)("%s answers 401 without a token", async (url) => {
    const response = await post(null, url, { all: true });
    expect([response.statusCode, response.json().code]).toEqual([401, "TOKEN_NOT_GIVEN"]);
  });

  it.each(routes)("%s answers 403 to superusers", async (url) => {
    const response = await post(tokens.root, url, { all: true });
    expect([response.statusCode, response.json().code]).toEqual([403, "PERMISSION_DENIED"]);
  });

  it("refuses marking read in a demo session", async () => {
    const response = await post(tokens.demo, "/api/events/read", { all: true });
    expect([response.statusCode, response.json().code]).toEqual([403, "DEMO_PERMISSIONS_DENIED"]);
  });
});

describe("POST /api/events/all", () => {
  it("streams the domain's events newest first with their device, honouring since/for, limit and offset", async () => {
    const domain = (await buildDomain(t)).id;
    const token = await signIn(t.app, await buildUser(t, { role: 4, domainId: domain }));
    const device = await buildDevice(t, domain);
    const base = t.clock.now().getTime() - 10 * 60_000;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      ids.push(
        await buildEvent(t, domain, {
          deviceId: i % 2 === 0 ? device.id : null,
          level: i === 5 ? "alert" : "warning",
          kind: "sim_switched",
          message: `event ${i}`,
          createTime: new Date(base + i * 60_000),
        }),
      );
    }
    await buildEvent(t, otherDomainId, { message: "not ours" });

    const all = await post(token, "/api/events/all", {});
    expect(all.statusCode).toBe(200);
    expect(all.headers["content-type"]).toContain("application/x-ndjson");
    const events = lines(all.body);
    expect(events.map((e) => e._id)).toEqual([...ids].reverse());
    expect(events[1]).toMatchObject({
      _id: ids[4],
      level: "warning",
      kind: "sim_switched",
      read: false,
      message: "event 4",
      device: { _id: device.id, ident: device.ident },
      author_id: null,
    });
    expect(events[0]?.device).toBeNull();

    const paged = lines((await post(token, "/api/events/all", { limit: 2, offset: 1 })).body);
    expect(paged.map((e) => e._id)).toEqual([ids[4], ids[3]]);
    const window = lines(
      (await post(token, "/api/events/all", { since: base + 60_000, for: 2 * 60_000 })).body,
    );
    expect(window.map((e) => e._id)).toEqual([ids[2], ids[1]]);
    const recent = lines((await post(token, "/api/events/all", { for: 6 * 60_000 })).body);
    expect(recent.map((e) => e._id)).toEqual([ids[5], ids[4]]);
  });

  it("refuses a limit above 2048 and bad types with BAD_REQUEST", async () => {
    for (const body of [{ limit: 2049 }, { limit: 0 }, { offset: -1 }, { since: "yesterday" }]) {
      const response = await post(tokens.admin, "/api/events/all", body);
      expect([response.statusCode, response.json().code], JSON.stringify(body)).toEqual([400, "BAD_REQUEST"]);
    }
  });
});

describe("POST /api/events/{dev_id}", () => {
  it("streams one device's events; another domain's device is 404", async () => {
    const device = await buildDevice(t, domainId);
    const other = await buildDevice(t, domainId);
    const mine = await buildEvent(t, domainId, { deviceId: device.id });
    await buildEvent(t, domainId, { deviceId: other.id });
    const response = await post(tokens.operator, `/api/events/${device.id}`, {});
    expect(lines(response.body).map((e) => e._id)).toEqual([mine]);
    const foreign = await buildDevice(t, otherDomainId);
    await buildEvent(t, otherDomainId, { deviceId: foreign.id });
    const denied = await post(tokens.admin, `/api/events/${foreign.id}`, {});
    expect([denied.statusCode, denied.json().code]).toEqual([404, "DEVICE_NOT_FOUND"]);
  });
});

describe("POST /api/events/read and /api/events/unread", () => {
  it("marks events read with the caller's device counts, and tells the domain's sockets", async () => {
    const domain = (await buildDomain(t)).id;
    const token = await signIn(t.app, await buildUser(t, { role: 4, domainId: domain }));
    const device = await buildDevice(t, domain);
    const first = await buildEvent(t, domain, { deviceId: device.id });
    const second = await buildEvent(t, domain, { deviceId: device.id });
    await buildEvent(t, domain, {});
    expect((await post(token, "/api/events/unread")).json()).toEqual({ count: 3 });

    const socket = await openTestSocket(socketUrl);
    openSockets.push(socket);
    socket.sendJson({ token });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });

    const read = await post(token, "/api/events/read", { ids: [first] });
    expect(read.json()).toEqual({ updated: 1, unread: 2 });
    // Only the events message: device rows are not pushed, each browser re-reads its own counts.
    expect(await socket.nextMessage()).toEqual({ type: "events", action: "read", content: [first] });
    const detail = await post(token, `/api/device/${device.id}`);
    expect(detail.json().device.events).toBe(1);

    const all = await post(token, "/api/events/read", { all: true });
    expect(all.json()).toEqual({ updated: 2, unread: 0 });
    expect((await post(token, "/api/events/unread")).json()).toEqual({ count: 0 });
    const events = lines((await post(token, "/api/events/all")).body);
    expect(events.every((e) => e.read)).toBe(true);
    expect(events.map((e) => e._id)).toContain(second);
  });

  it("answers EVENT_NOT_FOUND for another domain's or unknown ids and changes nothing", async () => {
    const own = await buildEvent(t, domainId, {});
    const foreign = await buildEvent(t, otherDomainId, {});
    for (const ids of [[own, foreign], ["not-a-number"], ["999999999"]]) {
      const response = await post(tokens.admin, "/api/events/read", { ids });
      expect([response.statusCode, response.json().code], JSON.stringify(ids)).toEqual([
        404,
        "EVENT_NOT_FOUND",
      ]);
    }
    const rows = await t.db
      .selectFrom("events")
      .select("is_read")
      .where("id", "in", [own, foreign])
      .execute();
    expect(rows.map((r) => r.is_read)).toEqual([false, false]);
    const otherCount = (await post(tokens.other, "/api/events/unread")).json().count;
    expect(otherCount).toBeGreaterThanOrEqual(1);
  });

  it("needs ids or all", async () => {
    const response = await post(tokens.admin, "/api/events/read", {});
    expect([response.statusCode, response.json().code]).toEqual([400, "BAD_REQUEST"]);
  });
});
