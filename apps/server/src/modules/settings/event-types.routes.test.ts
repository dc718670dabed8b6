import {
  EVENT_KINDS,
  EventTypesAnswerSchema,
  EXAMPLE_EVENT,
  eventTopic,
  PERMISSIONS,
  parseDeviceMessage,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn, signInDemo } from "../../test/factories";
import type { ParsedReport } from "../ingest/ingest.plan";
import { createIngestPipeline, type IngestPipeline } from "../ingest/ingest.service";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  settle,
  startNotifyTest,
} from "../notifications/notifications.test-support";

// Event types (spec sections 2, 3 and 7): an admin switches a kind off; its events are still stored
// and listed, but raise no 'new' badge and no notification. Other domains keep theirs on.

let n: NotifyTest;
let ingest: IngestPipeline;
let seq = 1;

beforeAll(async () => {
  n = await startNotifyTest();
  ingest = createIngestPipeline(
    { db: n.t.db, bus: n.t.bus, now: n.t.clock.now, log: { warn() {}, error() {} }, jobs: n.t.app.jobs },
    { flushIntervalMs: 5 },
  );
});
afterAll(async () => {
  await ingest.close();
  await n.close();
});

function report(ident: string, kind: string): ParsedReport {
  const parsed = parseDeviceMessage(
    eventTopic(ident),
    JSON.stringify({
      ...EXAMPLE_EVENT,
      kind,
      level: "warning",
      message: `${kind} happened`,
      details: {},
      seq: seq++,
      ts: n.t.clock.now().getTime(),
    }),
  );
  if (!parsed.ok) throw new Error("bad report");
  return parsed;
}

const unread = async (token: string) =>
  (await call(n.t.app, token, "/api/events/unread")).body.count as number;

describe("event types", () => {
  it("lists every kind, active until switched off, per domain; roles as the permission table says", async () => {
    const domainId = (await buildDomain(n.t)).id;
    const people = {
      admin: await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId })),
      assistant: await signIn(n.t.app, await buildUser(n.t, { role: 3, domainId })),
      operator: await signIn(n.t.app, await buildUser(n.t, { role: 4, domainId })),
      superuser: await signIn(n.t.app, await buildUser(n.t, { role: 1 })),
    };
    const other = await signIn(n.t.app, await buildUser(n.t, { role: 2 }));
    const list = EventTypesAnswerSchema.parse((await call(n.t.app, people.admin, "/api/event_types")).body);
    expect(list.items.map((item) => item.type)).toEqual([...EVENT_KINDS]);
    expect(list.items.every((item) => item.active && item._id === item.type)).toBe(true);

    for (const [kind, token] of Object.entries(people) as Array<[keyof typeof people, string]>) {
      const read = await call(n.t.app, token, "/api/event_types");
      expect(read.status, kind).toBe(PERMISSIONS["settings.view"].who.includes(kind) ? 200 : 403);
      const patch = await call(n.t.app, token, "/api/event_type/sim_switched", { active: false }, "PATCH");
      expect(patch.status, kind).toBe(PERMISSIONS["settings.save"].who.includes(kind) ? 200 : 403);
    }
    const switched = EventTypesAnswerSchema.parse(
      (await call(n.t.app, people.admin, "/api/event_types")).body,
    );
    expect(switched.items.filter((item) => !item.active).map((item) => item.type)).toEqual(["sim_switched"]);
    const theirs = EventTypesAnswerSchema.parse((await call(n.t.app, other, "/api/event_types")).body);
    expect(theirs.items.every((item) => item.active)).toBe(true);

    const unknown = await call(
      n.t.app,
      people.admin,
      "/api/event_type/no_such_kind",
      { active: false },
      "PATCH",
    );
    expect(unknown).toMatchObject({ status: 404, body: { code: "EVENT_NOT_FOUND" } });
    const bad = await call(n.t.app, people.admin, "/api/event_type/sim_switched", { active: "no" }, "PATCH");
    expect(bad).toMatchObject({ status: 400, body: { code: "BAD_REQUEST" } });
    const demo = await call(
      n.t.app,
      await signInDemo(n.t.app),
      "/api/event_type/sim_switched",
      { active: false },
      "PATCH",
    );
    expect(demo).toMatchObject({ status: 403, body: { code: "DEMO_PERMISSIONS_DENIED" } });

    await n.t.app.auditLog.settle();
    const audited = await n.t.db
      .selectFrom("web_actions")
      .select(["action", "status"])
      .where("domain_id", "=", domainId)
      .where("action", "=", "PATCH_event_type")
      .execute();
    expect(audited).toContainEqual({ action: "PATCH_event_type", status: "SUCCESS" });
  });

  it("an inactive type's events are stored read: no 'new' badge, no notification; switched on again, both return", async () => {
    const domainId = (await buildDomain(n.t)).id;
    const admin = await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId }));
    const chatId = "7001";
    n.bot.chats.set(chatId, { type: "private", title: "Event types" });
    const transportId = await createTelegram(n.t.app, admin, { chat_id: chatId });
    await createRule(n.t.app, admin, {
      monitor: { name: "device_event", variables: { kind: "any" } },
      transport_id: transportId,
    });
    const sent = () => n.bot.messages.filter((message) => message.chatId === chatId).map((m) => m.text);
    const device = await buildDevice(n.t, domainId);

    expect(
      (await call(n.t.app, admin, "/api/event_type/tunnel_status", { active: false }, "PATCH")).status,
    ).toBe(200);
    await ingest.submit(report(device.ident, "tunnel_status"));
    await settle(n.t);
    expect(await unread(admin)).toBe(0);
    expect(sent()).toEqual([]);
    const stored = await n.t.db
      .selectFrom("events")
      .select(["kind", "is_read", "is_quiet"])
      .where("device_id", "=", device.id)
      .execute();
    expect(stored).toEqual([{ kind: "tunnel_status", is_read: true, is_quiet: true }]);
    const row = await n.t.db
      .selectFrom("devices")
      .select("events_total")
      .where("id", "=", device.id)
      .executeTakeFirstOrThrow();
    expect(row.events_total).toBe(0);

    // An active kind in the same batch's domain still counts and notifies.
    await ingest.submit(report(device.ident, "router_started"));
    await settle(n.t);
    expect(await unread(admin)).toBe(1);
    expect(sent()).toEqual([expect.stringContaining("router_started")]);

    expect(
      (await call(n.t.app, admin, "/api/event_type/tunnel_status", { active: true }, "PATCH")).status,
    ).toBe(200);
    await ingest.submit(report(device.ident, "tunnel_status"));
    await settle(n.t);
    expect(await unread(admin)).toBe(2);
    expect(sent()).toHaveLength(2);
    expect(sent()[1]).toContain("tunnel_status");
  });
});
