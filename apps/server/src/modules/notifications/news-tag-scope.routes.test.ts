import { EXAMPLE_EVENT, eventTopic, parseDeviceMessage } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createIngestPipeline, type IngestPipeline } from "../ingest/ingest.service";
import { routerOfSubject } from "./engine/flush";
import { newsRepo } from "./news.repo";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  settle,
  startNotifyTest,
} from "./notifications.test-support";

// Issue 30, ADR 041: a person limited to tags is notified about their routers only. The in-app
// items and the delivery log name the routers of their lines (device_ids, migration 0048); a
// limited operator's bell lists and counts those of the "north" router, not the "south" one's;
// resending a delivery about another tag's router finds nothing; a mail provider without a
// recipient mails the domain's people, a limited one only what names their routers alone.

let n: NotifyTest;
let ingest: IngestPipeline;
let domainId: string;
let admin: string;
let limited: string;
let limitedAssistant: string;
let seq = 1;
const OPERATOR_MAIL = "north-operator@example.com";

const event = (ident: string, message: string) => {
  const parsed = parseDeviceMessage(
    eventTopic(ident),
    JSON.stringify({
      ...EXAMPLE_EVENT,
      kind: "sim_switched",
      level: "warning",
      message,
      details: {},
      seq: seq++,
      ts: n.t.clock.now().getTime(),
    }),
  );
  if (!parsed.ok) throw new Error("bad report");
  return ingest.submit(parsed);
};

beforeAll(async () => {
  n = await startNotifyTest();
  ingest = createIngestPipeline(
    { db: n.t.db, bus: n.t.bus, now: n.t.clock.now, log: { warn() {}, error() {} }, jobs: n.t.app.jobs },
    { flushIntervalMs: 5 },
  );
  domainId = (await buildDomain(n.t)).id;
  admin = await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId }));
  const operator = await buildUser(n.t, { role: 4, domainId, tagScope: ["north"] });
  await n.t.db.updateTable("users").set({ email: OPERATOR_MAIL }).where("id", "=", operator.id).execute();
  limited = await signIn(n.t.app, operator);
  limitedAssistant = await signIn(n.t.app, await buildUser(n.t, { role: 3, domainId, tagScope: ["north"] }));
  n.bot.chats.set("7100", { type: "private", title: "Chat 7100" });
  const transportId = await createTelegram(n.t.app, admin, { chat_id: "7100" });
  await createRule(n.t.app, admin, {
    monitor: { name: "device_event", variables: { kind: "sim_switched" } },
    transport_id: transportId,
    filter_levels: ["warning"],
  });
});
afterAll(async () => {
  await ingest.close();
  await n.close();
});

describe("notifications of a person limited to tags", () => {
  it("names the routers of a message's lines", () => {
    expect(routerOfSubject("device:d1")).toBe("d1");
    expect(routerOfSubject("event:d2:sim_switched")).toBe("d2");
    expect(routerOfSubject("firmware:d3:1.2")).toBe("d3");
    expect(routerOfSubject("user:u1")).toBeNull();
    expect(routerOfSubject("license:l1:5")).toBeNull();
  });

  it("lists, counts and resends only what names their routers; mails them only that", async () => {
    const north = await buildDevice(n.t, domainId, { tags: ["north"] });
    const south = await buildDevice(n.t, domainId, { tags: ["south"] });
    await event(north.ident, "north's SIM 2");
    await settle(n.t);
    await event(south.ident, "south's SIM 2");
    await settle(n.t);

    const stored = await n.t.db.selectFrom("notification_news").select("device_ids").execute();
    expect(stored.map((row) => JSON.stringify(row.device_ids)).sort()).toEqual(
      [JSON.stringify([north.id]), JSON.stringify([south.id])].sort(),
    );

    const everything = await call(n.t.app, admin, "/api/notifications/news");
    expect(everything.body.items).toHaveLength(2);
    const theirs = await call(n.t.app, limited, "/api/notifications/news");
    expect(theirs.status).toBe(200);
    expect(theirs.body.items.map((item: { text: string }) => item.text)).toEqual([
      expect.stringContaining(north.ident),
    ]);
    expect(theirs.body.unseen).toBe(1);
    expect(JSON.stringify(theirs.body)).not.toContain(south.ident);

    const log = await call(n.t.app, admin, "/api/notifications/deliveries");
    expect(log.body.items).toHaveLength(2);
    const southDelivery = log.body.items.find((item: { text: string }) => item.text.includes(south.ident));
    const limitedLog = await call(n.t.app, limited, "/api/notifications/deliveries");
    expect(limitedLog.body.items.map((item: { _id: string }) => item._id)).not.toContain(southDelivery._id);
    expect(limitedLog.body.items).toHaveLength(1);

    const resent = await call(
      n.t.app,
      limitedAssistant,
      `/api/notifications/delivery/${southDelivery._id}/resend`,
    );
    expect([resent.status, resent.body.code]).toEqual([404, "REPORT_NOT_FOUND"]);

    // A mail provider without a recipient: the domain's people, the limited one only with north alone.
    const audience = (ids: string[] | null) => newsRepo(n.t.db).findAudienceEmails(domainId, ids);
    expect(await audience([north.id])).toContain(OPERATOR_MAIL);
    expect(await audience([north.id, south.id])).not.toContain(OPERATOR_MAIL);
    expect(await audience([south.id])).not.toContain(OPERATOR_MAIL);
    expect(await audience(null)).toContain(OPERATOR_MAIL);
  });
});
