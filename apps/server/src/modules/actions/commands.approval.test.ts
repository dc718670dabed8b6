import {
  type CommandMessage,
  commandStatusTopic,
  commandTopic,
  MAX_DELIVERY_ATTEMPTS,
} from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { connectDevice, eventually } from "../ingest/ingest.test-support";
import { type ActionsFixture, openActionsFixture } from "./actions.test-support";
import { DEFAULT_DELIVERY_TIMINGS } from "./delivery.service";
import { runWatchdog } from "./router-status.service";

// Four eyes, expiry, the watchdog and giving up, through the HTTP API and a real broker.

type Person = { id: string; token: string };

describe("approval, expiry and the watchdog", () => {
  let f: ActionsFixture;
  let admin: Person;
  let assistant: Person;
  let assistant2: Person;
  let junior: Person;
  let junior2: Person;
  let operator: Person;
  const socket: Array<{ type: string }> = [];
  beforeAll(async () => {
    f = await openActionsFixture();
    [admin, assistant, assistant2, junior, junior2, operator] = await Promise.all([
      f.person("admin"),
      f.person("assistant"),
      f.person("assistant"),
      f.person("junior"),
      f.person("junior"),
      f.person("operator"),
    ]);
    await f.t.bus.subscribe(domainTopic(f.domainId), (message) => socket.push(message as { type: string }));
  }, 60_000);
  afterAll(async () => {
    await f.close();
  }, 60_000);

  it("holds a junior's reboot unapproved: no router hears of it; an assistant approves it and it runs", async () => {
    const device = await f.device(["approval"]);
    const router = await f.router(device);
    const heard: string[] = [];
    router.on("command", (command) => heard.push(command.id));
    const created = await f.post(junior.token, "/api/command/new", {
      type: "reboot",
      targets: { tags: ["approval"] },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json()._id;
    expect(created.json()).toMatchObject({
      status: "unapproved",
      needs_approval: true,
      counts: { unapproved: 1 },
    });
    const event = await f.t.db
      .selectFrom("events")
      .selectAll()
      .where("kind", "=", "command_needs_approval")
      .where("author_id", "=", junior.id)
      .executeTakeFirstOrThrow();
    expect(event.details).toMatchObject({
      command_id: id,
      type: "reboot",
      targets: 1,
      approvers: ["admin", "assistant"],
    });
    expect(socket.some((message) => message.type === "approval")).toBe(true);
    await f.t.jobs.runUntilIdle();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([]);

    for (const [who, code] of [
      [junior, "PERMISSION_DENIED"],
      [junior2, "PERMISSION_DENIED"],
      [operator, "PERMISSION_DENIED"],
    ] as const) {
      const refused = await f.post(who.token, `/api/command/${id}/approve`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe(code);
    }
    const approved = await f.post(assistant.token, `/api/command/${id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().approver).toMatchObject({ _id: assistant.id });
    const done = await f.waitForCommand(
      admin.token,
      id,
      (c) => c.status === "completed",
      "the approved reboot",
    );
    expect(done.counts).toEqual({ completed: 1 });
    expect(heard).toHaveLength(1);
  });

  it("lets only an admin approve an assistant's command; a decline cancels it with its reason", async () => {
    const device = await f.device();
    const created = await f.post(assistant.token, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
    });
    const id = created.json()._id;
    expect((await f.post(assistant.token, `/api/command/${id}/approve`)).statusCode).toBe(403);
    expect((await f.post(assistant2.token, `/api/command/${id}/approve`)).statusCode).toBe(403);
    const declined = await f.post(admin.token, `/api/command/${id}/decline`, {
      reason: "not during business hours",
    });
    expect(declined.json()).toMatchObject({
      status: "cancelled",
      declined_reason: "not during business hours",
    });
    expect((await f.post(admin.token, `/api/command/${id}/approve`)).json().code).toBe(
      "OPERATION_IS_NOT_SUPPORTED",
    );
    const own = await f.post(admin.token, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
      delayed_until: Date.now() + 60_000,
    });
    expect(own.json()).toMatchObject({ status: "delayed", needs_approval: false });
    expect((await f.post(admin.token, `/api/command/${own.json()._id}/approve`)).statusCode).toBe(403);
  });

  it("tells each approver how many commands wait for them, and names the routers in the event (issue 27)", async () => {
    const devices = await Promise.all([1, 2, 3, 4, 5, 6].map(() => f.device(["waiting"])));
    const before = async (who: Person) => (await f.post(who.token, "/api/commands/waiting")).json().count;
    const [assistantBefore, adminBefore, juniorBefore] = await Promise.all([
      before(assistant),
      before(admin),
      before(junior),
    ]);
    const created = await f.post(junior.token, "/api/command/new", {
      type: "reboot",
      targets: { tags: ["waiting"] },
    });
    const id = created.json()._id;
    const waiting = await f.post(assistant.token, "/api/commands/waiting");
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect(waiting.json().count).toBe(assistantBefore + 1);
    expect(waiting.json().items[0]).toMatchObject({ _id: id, status: "unapproved" });
    expect((await f.post(admin.token, "/api/commands/waiting")).json().count).toBe(adminBefore + 1);
    // Four eyes: the author and another junior are never asked; an operator approves nothing.
    expect((await f.post(junior.token, "/api/commands/waiting")).json().count).toBe(juniorBefore);
    expect((await f.post(junior2.token, "/api/commands/waiting")).json()).toMatchObject({ count: 0 });
    expect((await f.post(operator.token, "/api/commands/waiting")).json()).toMatchObject({ count: 0 });

    const event = await f.t.db
      .selectFrom("events")
      .selectAll()
      .where("kind", "=", "command_needs_approval")
      .where("details", "@>", JSON.stringify({ command_id: id }) as never)
      .executeTakeFirstOrThrow();
    const idents = devices.map((device) => device.ident).sort();
    const named = (event.details as { idents: string[] }).idents;
    expect(named).toHaveLength(5);
    for (const ident of named) expect(idents).toContain(ident);
    expect(event.message).toContain(named[0]);
    expect(event.message).toMatch(/\+1$/);

    await f.post(assistant.token, `/api/command/${id}/decline`, { reason: "no" });
    expect((await f.post(assistant.token, "/api/commands/waiting")).json().count).toBe(assistantBefore);
  });

  it("lets nobody cancel a command they could not approve: an assistant or a junior an admin's (issue 27)", async () => {
    const device = await f.device();
    const own = await f.post(admin.token, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
      delayed_until: Date.now() + 60_000,
    });
    const id = own.json()._id;
    for (const who of [assistant, junior, operator]) {
      const refused = await f.post(who.token, `/api/command/${id}/cancel`);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().code).toBe("PERMISSION_DENIED");
    }
    const juniors = await f.post(junior.token, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
    });
    const juniorId = juniors.json()._id;
    expect((await f.post(junior2.token, `/api/command/${juniorId}/cancel`)).statusCode).toBe(403);
    expect((await f.post(assistant.token, `/api/command/${juniorId}/cancel`)).json()).toMatchObject({
      status: "cancelled",
    });
    expect((await f.post(admin.token, `/api/command/${id}/cancel`)).json()).toMatchObject({
      status: "cancelled",
    });
  });

  it("expires what waits past run-until, approval included (the approval lapses)", async () => {
    const device = await f.device();
    const now = f.t.clock.now().getTime();
    const created = await f.post(junior.token, "/api/command/new", {
      type: "reboot",
      targets: { devices: [device.id] },
      run_until: now + 60_000,
    });
    const id = created.json()._id;
    f.t.clock.advance(61_000);
    expect((await f.post(admin.token, `/api/command/${id}/approve`)).json().code).toBe(
      "OPERATION_IS_NOT_SUPPORTED",
    );
    await runWatchdog(f.t.ctx, DEFAULT_DELIVERY_TIMINGS);
    const command = (await f.post(admin.token, `/api/command/${id}`)).json();
    expect(command).toMatchObject({ status: "expired", counts: { expired: 1 } });
  });

  it("times out an execution the router accepted and never finished; gives up on one never acknowledged", async () => {
    const silent = await f.device();
    const mute = await f.device();
    const silentClient = await connectDevice(f.ingest.gateway.url, silent.ident, silent.token ?? undefined);
    const muteClient = await connectDevice(f.ingest.gateway.url, mute.ident, mute.token ?? undefined);
    let muteHeard = 0;
    try {
      await silentClient.subscribeAsync(commandTopic(silent.ident), { qos: 1 });
      await muteClient.subscribeAsync(commandTopic(mute.ident), { qos: 1 });
      silentClient.on("message", (_topic, payload) => {
        const command = JSON.parse(payload.toString()) as CommandMessage;
        const status = {
          v: 1,
          seq: Date.now(),
          ts: Date.now(),
          id: command.id,
          state: "accepted",
          code: null,
          output: "",
        };
        // A redelivery can arrive while the test ends the client: its refused publish is expected.
        silentClient
          .publishAsync(commandStatusTopic(silent.ident, command.id), JSON.stringify(status), { qos: 1 })
          .catch(() => {});
      });
      muteClient.on("message", () => {
        muteHeard += 1;
      });
      const accepted = await f.post(admin.token, "/api/command/new", {
        type: "reboot",
        targets: { devices: [silent.id] },
      });
      const unheard = await f.post(admin.token, "/api/command/new", {
        type: "reboot",
        targets: { devices: [mute.id] },
      });
      const sent = await f.waitForCommand(
        admin.token,
        accepted.json()._id,
        (c) => (c.counts.sent ?? 0) === 1,
        "sent",
      );
      expect(sent.status).toBe("in_progress");
      await eventually(() => muteHeard === 1, "the first publish");
      for (let attempt = 1; attempt < MAX_DELIVERY_ATTEMPTS + 1; attempt++) {
        f.t.clock.advance(DEFAULT_DELIVERY_TIMINGS.ackTimeoutMs + 1);
        await runWatchdog(f.t.ctx, DEFAULT_DELIVERY_TIMINGS);
        await f.t.jobs.runUntilIdle();
      }
      expect(muteHeard).toBe(MAX_DELIVERY_ATTEMPTS);
      const gaveUp = (await f.post(admin.token, `/api/command/${unheard.json()._id}`)).json();
      expect(gaveUp).toMatchObject({ status: "failed", counts: { attempts_exceeded: 1 } });
      f.t.clock.advance(DEFAULT_DELIVERY_TIMINGS.watchdogMs);
      await runWatchdog(f.t.ctx, DEFAULT_DELIVERY_TIMINGS);
      const timedOut = (await f.post(admin.token, `/api/command/${accepted.json()._id}`)).json();
      expect(timedOut).toMatchObject({ status: "failed", counts: { timed_out: 1 } });
      const retried = await f.post(admin.token, `/api/command/${accepted.json()._id}/retry-failed`);
      expect(retried.json()).toMatchObject({ type: "reboot", total: 1, targets: { devices: [silent.id] } });
    } finally {
      await silentClient.endAsync();
      await muteClient.endAsync();
    }
  });
});
