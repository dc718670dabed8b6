import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildDevice } from "../../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../../test/factories";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  setContact,
  settle,
  startNotifyTest,
  sweep,
} from "../notifications.test-support";

// Alert hygiene for flapping cellular links (issue 15): one message when a problem starts and one
// when it ends, not one per report; a problem must last the rule's tolerance before it is sent;
// repeats of an incident are counted, not re-sent; many incidents at once make one message.

let n: NotifyTest;
let domainId: string;
let admin: string;
let transportId: string;

beforeAll(async () => {
  n = await startNotifyTest();
});
afterAll(async () => {
  await n.close();
});
// Each test has a domain of its own, so no rule of one hears the devices of another.
beforeEach(async () => {
  n.bot.messages.splice(0);
  domainId = (await buildDomain(n.t)).id;
  admin = await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId }));
  transportId = await createTelegram(n.t.app, admin, { name: "Hygiene bot" });
});

/** A device that is online now (contact a minute ago), its status stored as the sweep would. */
async function onlineDevice(tags: string[] = []) {
  const device = await buildDevice(n.t, domainId, { tags, last_status: "online" });
  await setContact(n.t, device.id, 1);
  return device;
}

async function statusRule(tolerance: number, extra: object = {}) {
  return createRule(n.t.app, admin, {
    monitor: { name: "device_status", variables: { status: "critical" } },
    transport_id: transportId,
    tolerance_minutes: tolerance,
    ...extra,
  });
}

async function pause(ruleId: string) {
  const answer = await call(n.t.app, admin, `/api/notifications/rule/${ruleId}`, { active: false }, "PATCH");
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

describe("a device status rule", () => {
  it("sends one message when a router goes critical and one when it is back, not one per sweep", async () => {
    const rule = await statusRule(0);
    const device = await onlineDevice();
    await setContact(n.t, device.id, 120);
    expect(await sweep(n.t)).toBeGreaterThan(0);
    await settle(n.t);
    expect(n.bot.messages).toHaveLength(1);
    expect(n.bot.messages[0]?.text).toContain(`${device.ident}: status critical`);
    // Still critical: the sweeps that follow change nothing and say nothing.
    await sweep(n.t);
    await settle(n.t);
    expect(n.bot.messages).toHaveLength(1);
    await setContact(n.t, device.id, 0);
    await sweep(n.t);
    await settle(n.t);
    expect(n.bot.messages).toHaveLength(2);
    // The incident's own length: from the sweep that found it critical to the one that found it back.
    expect(n.bot.messages[1]?.text).toMatch(
      new RegExp(`${device.ident}: online again \\(the problem lasted \\d+ s\\)`),
    );
    await pause(rule);
  });

  it("says nothing about a problem shorter than the tolerance", async () => {
    const rule = await statusRule(10);
    const device = await onlineDevice();
    await setContact(n.t, device.id, 120);
    await sweep(n.t);
    await settle(n.t, 4 * 60_000);
    await setContact(n.t, device.id, 0);
    await sweep(n.t);
    await settle(n.t, 20 * 60_000);
    expect(n.bot.messages).toHaveLength(0);
    await pause(rule);
  });

  it("sends a problem that lasts the tolerance once, after it, and counts a flap as a repeat", async () => {
    const rule = await statusRule(10);
    const device = await onlineDevice();
    await setContact(n.t, device.id, 120);
    await sweep(n.t);
    await settle(n.t, 5 * 60_000);
    expect(n.bot.messages).toHaveLength(0);
    await settle(n.t, 6 * 60_000);
    expect(n.bot.messages).toHaveLength(1);
    // Back for a moment, then down again within the tolerance: no end and no new start are sent.
    await setContact(n.t, device.id, 0);
    await sweep(n.t);
    await settle(n.t, 2 * 60_000);
    await setContact(n.t, device.id, 120);
    await sweep(n.t);
    await settle(n.t, 15 * 60_000);
    expect(n.bot.messages).toHaveLength(1);
    const incidents = await n.t.db
      .selectFrom("notification_incidents")
      .select(["state", "repeats"])
      .where("rule_id", "=", rule)
      .execute();
    expect(incidents).toEqual([{ state: "open", repeats: 1 }]);
    // Back for good: the end is sent once the tolerance has passed.
    await setContact(n.t, device.id, 0);
    await sweep(n.t);
    await settle(n.t, 11 * 60_000);
    expect(n.bot.messages).toHaveLength(2);
    expect(n.bot.messages[1]?.text).toContain("Ended (1)");
    await pause(rule);
  });

  it("puts many routers going critical at once into one message, listing the first and counting the rest", async () => {
    const rule = await statusRule(0, { filter_tags: ["bulk"] });
    const devices = [];
    for (let i = 0; i < 40; i += 1) devices.push(await onlineDevice(["bulk"]));
    await onlineDevice(["other"]);
    for (const device of devices) await setContact(n.t, device.id, 120);
    await n.t.db
      .updateTable("devices")
      .set({ last_contact: new Date(n.t.clock.now().getTime() - 7200_000) })
      .where("domain_id", "=", domainId)
      .execute();
    await sweep(n.t);
    await settle(n.t);
    expect(n.bot.messages).toHaveLength(1);
    const text = n.bot.messages[0]?.text ?? "";
    expect(text.split("\n")[0]).toMatch(/: 40 started$/);
    expect(text).toContain("Started (40):");
    expect(text.match(/^• /gm)).toHaveLength(30);
    expect(text).toContain("… and 10 more");
    expect(text.length).toBeLessThanOrEqual(4096);
    await pause(rule);
  });

  it("closes a switched-off rule's incidents without a word", async () => {
    const rule = await statusRule(30);
    const device = await onlineDevice();
    await setContact(n.t, device.id, 120);
    await sweep(n.t);
    await n.t.jobs.runUntilIdle();
    await pause(rule);
    await settle(n.t, 31 * 60_000);
    expect(n.bot.messages).toHaveLength(0);
    const live = await n.t.db
      .selectFrom("notification_incidents")
      .select("state")
      .where("rule_id", "=", rule)
      .execute();
    expect(live).toEqual([{ state: "closed" }]);
  });
});
