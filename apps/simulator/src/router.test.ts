import {
  COLLECT_TYPES,
  commandTopic,
  type DeviceMessageParseResult,
  EXAMPLE_COMMAND,
  parseDeviceMessage,
} from "@cellfleet/contract";
import { afterEach, describe, expect, it } from "vitest";
import { QUIET_BEHAVIOUR } from "./behaviour";
import { VirtualRouter, type VirtualRouterOptions } from "./router";
import { receivedOn, startTestBroker, type TestBroker, waitFor } from "./test-broker";

const IDENT = "SIM000001";
const KEY = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF";
const OTHER_KEY = "F".repeat(64);
/** The contract's example command, due now (the example's own run_until lies in the past). */
const SHELL_COMMAND = { ...EXAMPLE_COMMAND, run_until: Date.now() + 3_600_000 };

let broker: TestBroker | null = null;
const routers: VirtualRouter[] = [];

afterEach(async () => {
  await Promise.all(routers.splice(0).map((router) => router.stop()));
  await broker?.close();
  broker = null;
});

async function startRouter(over: Partial<VirtualRouterOptions> = {}): Promise<VirtualRouter> {
  if (!broker) throw new Error("no broker");
  const router = new VirtualRouter({
    ident: IDENT,
    key: KEY,
    url: broker.url,
    autoTick: false,
    behaviour: QUIET_BEHAVIOUR,
    reconnectPeriodMs: 100,
    commandDelayMs: 20,
    rebootDowntimeMs: 50,
    ...over,
  });
  routers.push(router);
  await router.start();
  return router;
}

/** Every message the broker received, parsed with the contract. */
function parsedMessages(from: TestBroker): DeviceMessageParseResult[] {
  return from.received.map((message) => parseDeviceMessage(message.topic, message.payload));
}

describe("VirtualRouter against an embedded broker", () => {
  it("connects with the token derived from its key; a wrong key is refused", async () => {
    broker = await startTestBroker(
      new Map([
        [IDENT, KEY],
        ["SIM000002", KEY],
      ]),
    );
    const good = await startRouter();
    await waitFor(() => good.stats.connected, "the router to connect");
    expect(good.stats.connects).toBe(1);

    const bad = await startRouter({ ident: "SIM000002", key: OTHER_KEY });
    await waitFor(() => broker?.refused.includes("SIM000002") ?? false, "the broker to refuse the wrong key");
    await waitFor(() => bad.stats.lastError !== null, "the refusal to reach the router");
    expect(bad.stats.connected).toBe(false);
    expect(bad.stats.connects).toBe(0);
    expect(bad.stats.lastError).toMatch(/bad username or password|not authorized/i);
    expect(broker.received.filter((message) => message.clientId === "SIM000002")).toEqual([]);
  });

  it("is refused when the broker does not know it", async () => {
    broker = await startTestBroker(new Map());
    const router = await startRouter();
    await waitFor(() => broker?.refused.includes(IDENT) ?? false, "the broker to refuse an unknown device");
    expect(router.stats.connected).toBe(false);
  });

  it("puts its epoch on every message when given one (counters restarted)", async () => {
    broker = await startTestBroker(new Map([[IDENT, KEY]]));
    await startRouter({ startSeq: 1, epoch: 1_767_225_600 });
    await waitFor(() => (broker?.received.length ?? 0) >= 1 + COLLECT_TYPES.length, "hello and the collects");
    const ok = parsedMessages(broker).flatMap((message) => (message.ok ? [message] : []));
    expect(ok.map((message) => message.message.epoch)).toEqual(ok.map(() => 1_767_225_600));
    expect(ok[0]?.message.seq).toBe(1);
  });

  it("says hello, then sends every collect type, all valid by the contract, in seq order", async () => {
    broker = await startTestBroker(new Map([[IDENT, KEY]]));
    const router = await startRouter();
    await waitFor(() => (broker?.received.length ?? 0) >= 1 + COLLECT_TYPES.length, "hello and the collects");

    const messages = parsedMessages(broker);
    const failures = messages.filter((message) => !message.ok);
    expect(failures).toEqual([]);
    const ok = messages.flatMap((message) => (message.ok ? [message] : []));
    expect(ok[0]).toMatchObject({
      kind: "hello",
      ident: IDENT,
      message: { model: router.state.model.model },
    });
    const collectTypes = ok.flatMap((message) => (message.kind === "collect" ? [message.collectType] : []));
    expect([...collectTypes].sort()).toEqual([...COLLECT_TYPES].sort());
    const seqs = ok.map((message) => message.message.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);

    router.tick();
    await waitFor(() => (broker?.received.length ?? 0) >= 1 + 2 * COLLECT_TYPES.length, "a second round");
    expect(parsedMessages(broker).every((message) => message.ok)).toBe(true);
    // A hello and two rounds of every collect type.
    const sent = 1 + 2 * COLLECT_TYPES.length;
    await waitFor(() => router.stats.acked === sent, "the PUBACKs");
    expect(router.stats).toMatchObject({
      published: sent,
      acked: sent,
      inflight: 0,
      queued: 0,
      retried: 0,
      dropped: 0,
    });
  });

  it("answers a command with accepted, then completed with output", async () => {
    broker = await startTestBroker(new Map([[IDENT, KEY]]));
    const router = await startRouter();
    await waitFor(
      () => router.stats.connected && receivedOn(broker as TestBroker, "/hello").length === 1,
      "hello",
    );
    await waitFor(() => (broker?.broker.connectedClients ?? 0) === 1, "the client");
    // The subscription is made on connect; give the SUBACK a moment by waiting for the collects.
    await waitFor(() => router.stats.acked >= 7, "the first round");

    await broker.publish(commandTopic(IDENT), JSON.stringify(SHELL_COMMAND));
    await waitFor(() => receivedOn(broker as TestBroker, "/status").length >= 2, "two statuses");
    const statuses = receivedOn(broker, `/command/${EXAMPLE_COMMAND.id}/status`);
    expect(statuses.map((status) => status.state)).toEqual(["accepted", "completed"]);
    expect(statuses[0]).toMatchObject({ id: EXAMPLE_COMMAND.id, code: null });
    expect(statuses[1]).toMatchObject({ id: EXAMPLE_COMMAND.id, code: 0 });
    expect(String(statuses[1].output)).toMatch(/up \d+ days/);
    expect(parsedMessages(broker).every((message) => message.ok)).toBe(true);

    // Delivered again (as the server does after a hello): the last status is repeated, nothing reruns.
    await broker.publish(commandTopic(IDENT), JSON.stringify(SHELL_COMMAND));
    await waitFor(() => receivedOn(broker as TestBroker, "/status").length >= 3, "the repeated status");
    expect(receivedOn(broker, "/status")[2]).toMatchObject({ state: "completed", code: 0 });
    expect(router.stats.commands).toBe(1);
  });

  it("fails or hangs commands at the configured rates", async () => {
    broker = await startTestBroker(new Map([[IDENT, KEY]]));
    await startRouter({ commandFailRate: 1 });
    await waitFor(() => receivedOn(broker as TestBroker, "/hello").length === 1, "hello");
    await waitFor(() => (broker?.broker.connectedClients ?? 0) === 1, "the client");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await broker.publish(commandTopic(IDENT), JSON.stringify({ ...SHELL_COMMAND, id: "fail1" }));
    await waitFor(
      () => receivedOn(broker as TestBroker, "/command/fail1/status").length >= 2,
      "two statuses",
    );
    expect(receivedOn(broker, "/command/fail1/status").map((status) => [status.state, status.code])).toEqual([
      ["accepted", null],
      ["failed", 1],
    ]);
    await Promise.all(routers.splice(0).map((router) => router.stop()));
    await startRouter({ commandHangRate: 1 });
    await waitFor(() => (broker?.broker.connectedClients ?? 0) === 1, "the client again");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await broker.publish(commandTopic(IDENT), JSON.stringify({ ...SHELL_COMMAND, id: "hang1" }));
    await waitFor(() => receivedOn(broker as TestBroker, "/command/hang1/status").length >= 1, "accepted");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receivedOn(broker, "/command/hang1/status").map((status) => status.state)).toEqual(["accepted"]);
  });

  it("fails expired and malformed commands with their codes", async () => {
    broker = await startTestBroker(new Map([[IDENT, KEY]]));
    const router = await startRouter();
    await waitFor(() => router.stats.acked >= 7, "the first round");
    await broker.publish(
      commandTopic(IDENT),
      JSON.stringify({ ...EXAMPLE_COMMAND, id: "late1", run_until: 1 }),
    );
    await broker.publish(
      commandTopic(IDENT),
      JSON.stringify({ ...SHELL_COMMAND, id: "bad1", type: "format_disk" }),
    );
    await waitFor(() => receivedOn(broker as TestBroker, "/status").length >= 2, "two statuses");
    expect(receivedOn(broker, "/command/late1/status")).toEqual([
      expect.objectContaining({ state: "failed", code: 124 }),
    ]);
    expect(receivedOn(broker, "/command/bad1/status")).toEqual([
      expect.objectContaining({ state: "failed", code: 127 }),
    ]);
  });

  it("reboots on a reboot command: disconnects, comes back with uptime reset, hello and router_started", async () => {
    broker = await startTestBroker(new Map([[IDENT, KEY]]));
    const router = await startRouter();
    await waitFor(() => router.stats.acked >= 7, "the first round");
    const firstHello = receivedOn(broker, "/hello")[0];

    await broker.publish(
      commandTopic(IDENT),
      JSON.stringify({ ...SHELL_COMMAND, id: "boot1", type: "reboot", args: {} }),
    );
    await waitFor(
      () => receivedOn(broker as TestBroker, "/hello").length === 2,
      "the hello after the reboot",
      10_000,
    );
    await waitFor(() => receivedOn(broker as TestBroker, "/event").length >= 1, "router_started");

    expect(receivedOn(broker, "/command/boot1/status").map((status) => status.state)).toEqual([
      "accepted",
      "completed",
    ]);
    const secondHello = receivedOn(broker, "/hello")[1];
    expect(Number(secondHello.uptime)).toBeLessThan(Number(firstHello.uptime));
    expect(Number(secondHello.uptime)).toBeLessThanOrEqual(1);
    expect(Number(secondHello.seq)).toBeGreaterThan(Number(firstHello.seq));
    expect(receivedOn(broker, "/event")[0]).toMatchObject({
      kind: "router_started",
      details: { reason: "command" },
    });
    expect(router.stats).toMatchObject({ reboots: 1, connects: 2 });
  });
});
