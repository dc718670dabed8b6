import type { AddressInfo } from "node:net";
import { DEFAULT_DOMAIN_SETTINGS, type Device, type DeviceListRequest } from "@cellfleet/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildDevice, buildEvent, uniqueDeviceIdent } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { createTestApp, type TestApp } from "../../test/test-app";
import { contactRangesByStatus } from "../devices/device-filter";
import { devicesListRepo } from "../devices/devices-list.repo";
import { LIST_PAGE_TTL_MS } from "../devices/list-page-cache";

// ADR 025 (issue 11): a router's event count on my device list is the number of its events I have
// not read; marking read changes my counts only, and no socket push carries anyone's count.
let t: TestApp;
let socketUrl: string;
const openSockets: TestSocket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  socketUrl = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/ws/`;
});
afterEach(() => {
  for (const socket of openSockets.splice(0)) socket.ws.terminate();
});
afterAll(async () => {
  await t?.close();
});

async function post(token: string, url: string, payload: object = {}) {
  return t.app.inject({ method: "POST", url, headers: { token }, payload });
}

async function list(token: string, body: DeviceListRequest = {}) {
  const response = await post(token, "/api/devices/", { size: 100, ...body });
  expect(response.statusCode, response.body).toBe(200);
  const lines = response.body
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line));
  const devices = lines.filter((line) => "_id" in line) as Device[];
  return { total: lines[0].total as number, devices, facets: lines.find((line) => "facets" in line)?.facets };
}

/** Each router's count on the user's list, by ident. */
async function counts(token: string): Promise<Record<string, number>> {
  const { devices } = await list(token);
  return Object.fromEntries(devices.map((device) => [device.ident, device.events]));
}

/** A domain with an admin (A) and a view-only operator (B), and three routers with 2, 1 and 0 events. */
async function fleet() {
  const domainId = (await buildDomain(t)).id;
  const prefix = uniqueDeviceIdent("U");
  const r1 = await buildDevice(t, domainId, { ident: `${prefix}1` });
  const r2 = await buildDevice(t, domainId, { ident: `${prefix}2` });
  const r3 = await buildDevice(t, domainId, { ident: `${prefix}3` });
  const events = [
    await buildEvent(t, domainId, { deviceId: r1.id }),
    await buildEvent(t, domainId, { deviceId: r1.id }),
    await buildEvent(t, domainId, { deviceId: r2.id }),
  ];
  // An approval event has no router; an event raised while its kind is off is read by everyone.
  await buildEvent(t, domainId, { kind: "command_needs_approval" });
  await buildEvent(t, domainId, { deviceId: r3.id, isQuiet: true });
  const userA = await buildUser(t, { role: 2, domainId });
  const userB = await buildUser(t, { role: 4, domainId });
  const a = await signIn(t.app, userA);
  const b = await signIn(t.app, userB);
  return { domainId, r1, r2, r3, events, a, b, userA, userB };
}

describe("the device list's event counts are each user's own", () => {
  it("A's 'all read' zeroes A's counts; B's stay, on the list, the device page and the CSV", async () => {
    const f = await fleet();
    const before = { [f.r1.ident]: 2, [f.r2.ident]: 1, [f.r3.ident]: 0 };
    expect(await counts(f.a)).toEqual(before);
    expect(await counts(f.b)).toEqual(before);

    const read = await post(f.a, "/api/events/read", { all: true });
    expect(read.json()).toEqual({ updated: 4, unread: 0 });
    expect(await counts(f.a)).toEqual({ [f.r1.ident]: 0, [f.r2.ident]: 0, [f.r3.ident]: 0 });
    expect(await counts(f.b)).toEqual(before);
    expect((await post(f.a, `/api/device/${f.r1.id}`)).json().device.events).toBe(0);
    expect((await post(f.b, `/api/device/${f.r1.id}`)).json().device.events).toBe(2);
    const csv = async (token: string) => (await post(token, "/api/devices/export")).body;
    expect(await csv(f.a)).toMatch(new RegExp(`${f.r1.ident},.*,0,[^,]*\\r?\\n`));
    expect(await csv(f.b)).toMatch(new RegExp(`${f.r1.ident},.*,2,[^,]*\\r?\\n`));

    // A later event is new to both.
    await buildEvent(t, f.domainId, { deviceId: f.r2.id });
    expect(await counts(f.a)).toEqual({ [f.r1.ident]: 0, [f.r2.ident]: 1, [f.r3.ident]: 0 });
    expect(await counts(f.b)).toEqual({ [f.r1.ident]: 2, [f.r2.ident]: 2, [f.r3.ident]: 0 });
  });

  it("keeps each viewer's counts their own on the page read behind the kept one at the clock's next window", async () => {
    const f = await fleet();
    await post(f.a, "/api/events/read", { ids: [f.events[0]] });
    const ofA = { [f.r1.ident]: 1, [f.r2.ident]: 1, [f.r3.ident]: 0 };
    const ofB = { [f.r1.ident]: 2, [f.r2.ident]: 1, [f.r3.ident]: 0 };
    expect(await counts(f.a)).toEqual(ofA);
    expect(await counts(f.b)).toEqual(ofB);
    // Written behind the server's back (no message on the bus): the page kept does not show it yet.
    await t.db.updateTable("devices").set({ description: "renamed" }).where("id", "=", f.r3.id).execute();
    const descriptionOfR3 = async (token: string) =>
      (await list(token)).devices.find((device) => device.ident === f.r3.ident)?.description;
    t.clock.advance(LIST_PAGE_TTL_MS);
    try {
      // The clock's next window: the page kept is answered at once while it is read behind.
      expect(await descriptionOfR3(f.a)).not.toBe("renamed");
      for (let tries = 0; (await descriptionOfR3(f.b)) !== "renamed"; tries++) {
        expect(tries).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Read with the page for those who asked for the kept one, and for a newcomer after it.
      expect(await counts(f.a)).toEqual(ofA);
      expect(await counts(f.b)).toEqual(ofB);
      const c = await signIn(t.app, await buildUser(t, { role: 4, domainId: f.domainId }));
      expect(await counts(c)).toEqual({ [f.r1.ident]: 2, [f.r2.ident]: 1, [f.r3.ident]: 0 });
    } finally {
      t.clock.advance(-LIST_PAGE_TTL_MS);
    }
  });

  it("reading by id lowers the reader's count of that router only, once however often it is read", async () => {
    const f = await fleet();
    const [first] = f.events;
    if (!first) throw new Error("no event");
    await post(f.b, "/api/events/read", { ids: [first] });
    await post(f.b, "/api/events/read", { ids: [first] });
    expect(await counts(f.b)).toEqual({ [f.r1.ident]: 1, [f.r2.ident]: 1, [f.r3.ident]: 0 });
    expect(await counts(f.a)).toEqual({ [f.r1.ident]: 2, [f.r2.ident]: 1, [f.r3.ident]: 0 });
    // "All read" after single reads: everything, counted once.
    expect((await post(f.b, "/api/events/read", { all: true })).json()).toEqual({ updated: 3, unread: 0 });
    expect(await counts(f.b)).toEqual({ [f.r1.ident]: 0, [f.r2.ident]: 0, [f.r3.ident]: 0 });
  });

  it("filters, counts the facet and sorts by the viewer's own counts, whoever asked first", async () => {
    const f = await fleet();
    await post(f.a, "/api/events/read", { ids: [f.events[0], f.events[1]] });
    // B asks first: a total or facets cached for B's filter must not answer A (ListCountCache).
    for (const [token, withEvents] of [
      [f.b, [f.r1.ident, f.r2.ident]],
      [f.a, [f.r2.ident]],
    ] as const) {
      const withList = await list(token, { events: "with", facets: true });
      expect(withList.devices.map((d) => d.ident).sort()).toEqual([...withEvents].sort());
      expect(withList.total).toBe(withEvents.length);
      const all = await list(token, { facets: true });
      expect(all.facets.events).toEqual({ with: withEvents.length, without: 3 - withEvents.length });
      const without = await list(token, { events: "without" });
      expect(without.total).toBe(3 - withEvents.length);
    }
    const byEvents = async (token: string, order: "asc" | "desc") =>
      (await list(token, { sort: { field: "events", order } })).devices.map((d) => [d.ident, d.events]);
    expect(await byEvents(f.b, "desc")).toEqual([
      [f.r1.ident, 2],
      [f.r2.ident, 1],
      [f.r3.ident, 0],
    ]);
    expect(await byEvents(f.a, "desc")).toEqual([
      [f.r2.ident, 1],
      [f.r3.ident, 0],
      [f.r1.ident, 0],
    ]);
    expect(await byEvents(f.a, "asc")).toEqual([
      [f.r1.ident, 0],
      [f.r3.ident, 0],
      [f.r2.ident, 1],
    ]);
    // Page by page, most unread first: each page is chosen among the routers whose total reaches
    // the lowest unread count of the routers with the most events (ADR 037), whatever A has read.
    // (The repo's own pages of one row: the contract's page sizes start at 10.)
    const pageOf = async (viewerId: string, offset: number) => {
      const ranges = contactRangesByStatus(DEFAULT_DOMAIN_SETTINGS.status, new Date());
      const lines = await devicesListRepo(t.db, viewerId, []).findDeviceLinesByFilter(
        f.domainId,
        {},
        { field: "events", order: "desc" },
        { limit: 1, offset, total: 3 },
        ranges,
      );
      return lines.map((line) => {
        const device = JSON.parse(line) as Device;
        return [device.ident, device.events];
      });
    };
    expect([await pageOf(f.userB.id, 0), await pageOf(f.userB.id, 1)]).toEqual([
      [[f.r1.ident, 2]],
      [[f.r2.ident, 1]],
    ]);
    expect([await pageOf(f.userA.id, 0), await pageOf(f.userA.id, 1)]).toEqual([
      [[f.r2.ident, 1]],
      [[f.r3.ident, 0]],
    ]);
  });

  it("a new user counts every event of the routers, as the 'new' badge does; approval events on none", async () => {
    const f = await fleet();
    await post(f.a, "/api/events/read", { all: true });
    const c = await signIn(t.app, await buildUser(t, { role: 3, domainId: f.domainId }));
    expect(await counts(c)).toEqual({ [f.r1.ident]: 2, [f.r2.ident]: 1, [f.r3.ident]: 0 });
    // The badge also counts the approval event, which belongs to no router.
    expect((await post(c, "/api/events/unread")).json()).toEqual({ count: 4 });
  });

  it("pushes device rows without a count, so no browser is shown another user's", async () => {
    const f = await fleet();
    const socket = await openTestSocket(socketUrl);
    openSockets.push(socket);
    socket.sendJson({ token: f.b });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
    const edited = await post(f.a, `/api/device/${f.r1.id}/edit`, { description: "pump" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ _id: f.r1.id, events: 2 });
    const pushed = (await socket.nextMessage()) as { type: string; content: Record<string, unknown>[] };
    expect(pushed).toMatchObject({ type: "devices", action: "update", content: [{ _id: f.r1.id }] });
    expect(pushed.content[0]).not.toHaveProperty("events");
  });

  it("deleting a router deletes the read counts kept for it", async () => {
    const f = await fleet();
    await post(f.a, "/api/events/read", { all: true });
    const rows = () =>
      t.db.selectFrom("device_event_reads").select("device_id").where("device_id", "=", f.r1.id).execute();
    expect(await rows()).toHaveLength(1);
    await t.db.deleteFrom("devices").where("id", "=", f.r1.id).execute();
    expect(await rows()).toHaveLength(0);
  });
});
