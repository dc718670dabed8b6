import {
  EXAMPLE_EVENT,
  EXAMPLE_HELLO,
  eventTopic,
  helloTopic,
  parseDeviceMessage,
} from "@cellfleet/contract";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildDevice } from "../../../test/device-factories";
import { buildDomain, buildPolicy, buildUser, signIn } from "../../../test/factories";
import type { ParsedReport } from "../../ingest/ingest.plan";
import { createIngestPipeline, type IngestPipeline } from "../../ingest/ingest.service";
import {
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  runTimers,
  setContact,
  settle,
  startNotifyTest,
} from "../notifications.test-support";

// Every monitor of spec section 3 fires from what exists now: ingest's hellos and events, people's
// actions on devices, expired and reset passwords, and the timers (connect, check interval,
// notify in advance, and the licence and firmware hooks).

let n: NotifyTest;
let ingest: IngestPipeline;
let domainId: string;
let admin: string;
let transportId: string;
let chatId: string;
let seq = 1;
let nextChat = 5000;

/** The messages of this test's own chat (other tests' rules keep firing into theirs). */
const sent = () => n.bot.messages.filter((message) => message.chatId === chatId);

beforeAll(async () => {
  n = await startNotifyTest();
  const quiet = { warn() {}, error() {} };
  ingest = createIngestPipeline(
    { db: n.t.db, bus: n.t.bus, now: n.t.clock.now, log: quiet, jobs: n.t.app.jobs },
    { flushIntervalMs: 5 },
  );
});
afterAll(async () => {
  await ingest.close();
  await n.close();
});
beforeEach(async () => {
  domainId = (await buildDomain(n.t)).id;
  admin = await signIn(n.t.app, await buildUser(n.t, { role: 2, domainId }));
  chatId = String(nextChat++);
  n.bot.chats.set(chatId, { type: "private", title: `Chat ${chatId}` });
  transportId = await createTelegram(n.t.app, admin, { chat_id: chatId });
});

function report(topic: string, message: object): ParsedReport {
  const parsed = parseDeviceMessage(
    topic,
    JSON.stringify({ ...message, seq: seq++, ts: n.t.clock.now().getTime() }),
  );
  if (!parsed.ok) throw new Error(`bad report: ${JSON.stringify(parsed)}`);
  return parsed;
}

/** The gateway's view of a router's connection (ADR 032), changed this many minutes ago. */
async function setConnection(deviceId: string, connected: boolean, minutesAgo: number): Promise<void> {
  await n.t.db
    .updateTable("devices")
    .set({ connected, connection_time: new Date(n.t.clock.now().getTime() - minutesAgo * 60_000) })
    .where("id", "=", deviceId)
    .execute();
}

const event = (ident: string, kind: string, level: string, message = "something happened") =>
  ingest.submit(report(eventTopic(ident), { ...EXAMPLE_EVENT, kind, level, message, details: {} }));

describe("reactive monitors", () => {
  it("device_event: events of the rule's kind, level and tags, repeats counted into one incident", async () => {
    await createRule(n.t.app, admin, {
      monitor: { name: "device_event", variables: { kind: "sim_switched" } },
      transport_id: transportId,
      filter_levels: ["warning", "error"],
      filter_tags: ["south"],
    });
    const south = await buildDevice(n.t, domainId, { tags: ["south"] });
    const north = await buildDevice(n.t, domainId, { tags: ["north"] });
    await event(south.ident, "sim_switched", "warning", "SIM 2 is active");
    await event(south.ident, "sim_switched", "info", "an info event the levels leave out");
    await event(south.ident, "router_started", "warning", "another kind");
    await event(north.ident, "sim_switched", "error", "another tag");
    await settle(n.t);
    expect(sent().map((message) => message.text.split("\n")[0])).toEqual([
      expect.stringContaining(`${south.ident}: warning sim_switched: SIM 2 is active`),
    ]);
    // The same again twice: counted, not sent; summed up once the quiet window (5 min) has passed.
    await event(south.ident, "sim_switched", "warning", "SIM 1 is active");
    await event(south.ident, "sim_switched", "error", "SIM 2 is active");
    await settle(n.t, 60_000);
    expect(sent()).toHaveLength(1);
    await settle(n.t, 6 * 60_000);
    expect(sent()).toHaveLength(2);
    expect(sent()[1]?.text).toContain("Repeated (1):");
    expect(sent()[1]?.text).toContain("2 more time(s)");
  });

  it("device_connected: a router's hello", async () => {
    await createRule(n.t.app, admin, { monitor: { name: "device_connected" }, transport_id: transportId });
    const device = await buildDevice(n.t, domainId);
    await ingest.submit(report(helloTopic(device.ident), EXAMPLE_HELLO));
    await settle(n.t);
    expect(sent()).toHaveLength(1);
    expect(sent()[0]?.text).toContain(`${device.ident}: connected`);
  });

  it("user_action: a person's edit of a device, and a delete", async () => {
    await createRule(n.t.app, admin, {
      monitor: { name: "user_action", variables: { action: "delete" } },
      transport_id: transportId,
    });
    await createRule(n.t.app, admin, {
      monitor: { name: "user_action" },
      transport_id: transportId,
      filter_tags: ["watched"],
    });
    const device = await buildDevice(n.t, domainId, { tags: ["watched"] });
    const edit = await call(n.t.app, admin, `/api/device/${device.id}/edit`, {
      description: "moved to the roof",
    });
    expect(edit.status).toBe(200);
    await settle(n.t);
    expect(sent().map((message) => message.text)).toEqual([expect.stringMatching(/: user_\w+ — edit/)]);
    const remove = await call(n.t.app, admin, `/api/device/${device.id}`, {}, "DELETE");
    expect(remove.status).toBe(200);
    await settle(n.t);
    // Both rules hear the delete: each sends its own message.
    expect(
      sent()
        .slice(1)
        .map((message) => message.text),
    ).toEqual([expect.stringContaining(`${device.ident}:`), expect.stringContaining(`${device.ident}:`)]);
    expect(
      sent()
        .slice(1)
        .every((message) => message.text.includes("— delete")),
    ).toBe(true);
  });

  it("password_expired and password_reset: a sign-in that meets an expired password", async () => {
    await createRule(n.t.app, admin, { monitor: { name: "password_expired" }, transport_id: transportId });
    await createRule(n.t.app, admin, { monitor: { name: "password_reset" }, transport_id: transportId });
    const policyId = await buildPolicy(n.t, domainId, { expiration_strategy: "send_new_password" });
    const user = await buildUser(n.t, {
      role: 4,
      domainId,
      policyId,
      passwordExpireDate: new Date(n.t.clock.now().getTime() - 1000),
    });
    const login = await n.t.app.inject({
      method: "POST",
      url: "/api/login/",
      payload: { username: user.username, password: user.password },
    });
    // No mail server here: the new password cannot be sent, so the account waits for an admin.
    expect(login.json().code).toBe("USER_RESET_AND_BLOCKED");
    await settle(n.t);
    const texts = sent().map((message) => message.text.split("\n")[0]);
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`The password of ${user.username} has expired`),
        expect.stringContaining(`The password of ${user.username} was reset`),
      ]),
    );
  });
});

describe("timer monitors", () => {
  it("connect: a router silent longer than check_delay, once, and again when it reports", async () => {
    await createRule(n.t.app, admin, {
      monitor: { name: "connect", check_delay: 30 },
      transport_id: transportId,
    });
    const silent = await buildDevice(n.t, domainId);
    const fine = await buildDevice(n.t, domainId);
    await setContact(n.t, silent.id, 45);
    await setContact(n.t, fine.id, 5);
    expect(await runTimers(n.t)).toBe(true);
    await settle(n.t);
    expect(sent().map((message) => message.text.split("\n")[0])).toEqual([
      expect.stringContaining(`${silent.ident}: no contact for more than 30 min`),
    ]);
    n.t.clock.advanceMinutes(2);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent()).toHaveLength(1);
    await setContact(n.t, silent.id, 0);
    n.t.clock.advanceMinutes(2);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent()).toHaveLength(2);
    expect(sent()[1]?.text).toContain(`${silent.ident}: in contact again`);
  });

  it("connect: a router disconnected longer than check_delay though its status is online, not one connected but quiet", async () => {
    await createRule(n.t.app, admin, {
      monitor: { name: "connect", check_delay: 10 },
      transport_id: transportId,
    });
    const killed = await buildDevice(n.t, domainId);
    const quiet = await buildDevice(n.t, domainId);
    // Killed 12 minutes ago: its keep-alive ran out, while its last contact keeps it online (15 min).
    await setContact(n.t, killed.id, 12);
    await setConnection(killed.id, false, 11);
    // Connected all along, reporting nothing for 40 minutes: the gateway knows it is there.
    await setContact(n.t, quiet.id, 40);
    await setConnection(quiet.id, true, 60);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent().map((message) => message.text.split("\n")[0])).toEqual([
      expect.stringContaining(`${killed.ident}: no contact for more than 10 min`),
    ]);
    await setConnection(killed.id, true, 0);
    n.t.clock.advanceMinutes(2);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent()[1]?.text).toContain(`${killed.ident}: in contact again`);
  });

  it("check_interval: every check_delay hours, one digest of the devices at the status or worse", async () => {
    await createRule(n.t.app, admin, {
      monitor: { name: "check_interval", check_delay: 2, variables: { status: "warning" } },
      transport_id: transportId,
    });
    const late = await buildDevice(n.t, domainId);
    const lost = await buildDevice(n.t, domainId);
    await buildDevice(n.t, domainId);
    await setContact(n.t, late.id, 30);
    await setContact(n.t, lost.id, 90);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent()).toHaveLength(0);
    n.t.clock.advanceMinutes(121);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent()).toHaveLength(1);
    const text = sent()[0]?.text ?? "";
    expect(text.split("\n")[0]).toMatch(/: 2 devices warning or worse$/);
    expect(text).toContain(`${lost.ident}: critical`);
    expect(text).toContain(`${late.ident}: critical`);
    n.t.clock.advanceMinutes(30);
    await runTimers(n.t);
    await settle(n.t);
    expect(sent()).toHaveLength(1);
  });

  it("notify_in_advance: a password expiring within check_delay hours, said once", async () => {
    await createRule(n.t.app, admin, {
      monitor: { name: "notify_in_advance", check_delay: 24, variables: { subject: "password" } },
      transport_id: transportId,
    });
    const soon = await buildUser(n.t, {
      role: 4,
      domainId,
      passwordExpireDate: new Date(n.t.clock.now().getTime() + 10 * 3600_000),
    });
    await buildUser(n.t, {
      role: 4,
      domainId,
      passwordExpireDate: new Date(n.t.clock.now().getTime() + 48 * 3600_000),
    });
    for (let minute = 0; minute < 3; minute += 1) {
      await runTimers(n.t);
      await settle(n.t, 60_000);
    }
    expect(sent().map((message) => message.text.split("\n")[0])).toEqual([
      expect.stringContaining(`The password of ${soon.username} expires`),
    ]);
  });

  it("the licence and firmware hooks: sources other modules register are read by the timers", async () => {
    n.t.app.hooks.get("notifications.sources").registerLicenseSource({
      findExpiring: async (_db, scope, from, until) => {
        const expiresAt = new Date(from.getTime() + 3600_000);
        return scope === domainId && expiresAt <= until
          ? [{ id: "LIC-1", label: "LIC-1 (50 routers)", expiresAt }]
          : [];
      },
    });
    const device = await buildDevice(n.t, domainId, { tags: ["rollout"] });
    n.t.app.hooks.get("notifications.sources").registerFirmwareSource({
      findUpdates: async (_db, scope) =>
        scope === domainId
          ? [{ deviceId: device.id, ident: device.ident, tags: ["rollout"], version: "2.4.1" }]
          : [],
    });
    await createRule(n.t.app, admin, {
      monitor: { name: "notify_in_advance", check_delay: 72, variables: { subject: "license" } },
      transport_id: transportId,
    });
    await createRule(n.t.app, admin, {
      monitor: { name: "firmware_update", check_delay: 24 },
      transport_id: transportId,
    });
    await runTimers(n.t);
    await settle(n.t);
    const texts = sent().map((message) => message.text.split("\n")[0]);
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringContaining("Licence LIC-1 (50 routers) expires"),
        expect.stringContaining(`${device.ident}: firmware 2.4.1 is available`),
      ]),
    );
  });
});
