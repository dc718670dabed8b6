import { COLLECT_TYPES, parseDeviceMessage } from "@cellfleet/contract";
import { afterEach, describe, expect, it } from "vitest";
import { QUIET_BEHAVIOUR } from "./behaviour";
import { Fleet, fleetIdent } from "./fleet";
import { deriveFleetKey } from "./keys";
import { VirtualRouter } from "./router";
import { receivedOn, sleep, startTestBroker, type TestBroker, waitFor } from "./test-broker";

const SECRET = "fleet-test-secret";
/** Messages a router sends on connect: hello and one collect of each type. */
const PER_CONNECT = 1 + COLLECT_TYPES.length;

const brokers: TestBroker[] = [];
const stoppers: Array<() => Promise<void>> = [];

afterEach(async () => {
  await Promise.all(stoppers.splice(0).map((stop) => stop()));
  await Promise.all(brokers.splice(0).map((broker) => broker.close()));
});

async function fleetKeys(count: number): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (let i = 1; i <= count; i++)
    keys.set(fleetIdent("SIM", i), await deriveFleetKey(SECRET, fleetIdent("SIM", i)));
  return keys;
}

async function broker(keys: Map<string, string>, port = 0): Promise<TestBroker> {
  const started = await startTestBroker(keys, port);
  brokers.push(started);
  return started;
}

/** Counts, from the client's own packets, QoS 1 publishes sent and not yet acknowledged; keeps the peak. */
function watchWire(router: VirtualRouter): { peak: () => number } {
  const client = router.mqttClient;
  if (!client) throw new Error("router has no client");
  const open = new Set<number>();
  let peak = 0;
  client.on("packetsend", (packet) => {
    if (packet.cmd === "publish" && packet.qos === 1 && packet.messageId !== undefined) {
      open.add(packet.messageId);
      peak = Math.max(peak, open.size);
    }
  });
  client.on("packetreceive", (packet) => {
    if (packet.cmd === "puback" && packet.messageId !== undefined) open.delete(packet.messageId);
  });
  return { peak: () => peak };
}

describe("in-flight bounds", () => {
  it("a router never has more unacknowledged publishes than its bound", async () => {
    const keys = await fleetKeys(1);
    const mqtt = await broker(keys);
    mqtt.hold = true;
    const router = new VirtualRouter({
      ident: "SIM000001",
      key: keys.get("SIM000001") as string,
      url: mqtt.url,
      autoTick: false,
      behaviour: QUIET_BEHAVIOUR,
      maxInflight: 3,
      reconnectPeriodMs: 100,
    });
    stoppers.push(() => router.stop());
    await router.start();
    const wire = watchWire(router);

    await waitFor(() => router.stats.inflight === 3, "three publishes in flight");
    router.tick(); // six more collects queue up behind the bound
    await sleep(300);
    expect(router.stats).toMatchObject({
      inflight: 3,
      acked: 0,
      queued: PER_CONNECT + COLLECT_TYPES.length - 3,
    });
    expect(mqtt.held.length).toBeLessThanOrEqual(3);
    expect(wire.peak()).toBe(3);

    mqtt.hold = false;
    mqtt.releaseHeld();
    const total = PER_CONNECT + COLLECT_TYPES.length;
    await waitFor(() => router.stats.acked === total, "every publish acknowledged");
    expect(router.stats).toMatchObject({ inflight: 0, queued: 0, peakInflight: 3 });
    expect(wire.peak()).toBe(3);
    expect(mqtt.received).toHaveLength(total);
  });

  it("a fleet never has more unacknowledged publishes in total than its bound", async () => {
    const keys = await fleetKeys(4);
    const mqtt = await broker(keys);
    mqtt.hold = true;
    const fleet = new Fleet({
      url: mqtt.url,
      devices: 4,
      keys: { kind: "secret", secret: SECRET },
      autoTick: false,
      behaviour: QUIET_BEHAVIOUR,
      maxInflightPerRouter: 3,
      maxInflightTotal: 5,
      reconnectPeriodMs: 100,
    });
    stoppers.push(() => fleet.stop());
    await fleet.start();
    const wires = fleet.routers.map(watchWire);

    await waitFor(() => fleet.stats().connected === 4, "four routers connected");
    await waitFor(() => fleet.inflight.inUse === 5, "the fleet bound to fill");
    await sleep(300);
    expect(fleet.stats().inflight).toBe(5);
    expect(fleet.routers.every((router) => router.stats.inflight <= 3)).toBe(true);
    expect(wires.reduce((sum, wire) => sum + wire.peak(), 0)).toBeLessThanOrEqual(4 * 3);

    mqtt.hold = false;
    mqtt.releaseHeld();
    await waitFor(() => fleet.stats().acked === 4 * PER_CONNECT, "every publish acknowledged");
    expect(fleet.stats()).toMatchObject({ inflight: 0, queued: 0, peakInflight: 5 });
    expect(fleet.inflight.inUse).toBe(0);
    const idents = new Set(mqtt.received.map((message) => message.clientId));
    expect(idents).toEqual(new Set(["SIM000001", "SIM000002", "SIM000003", "SIM000004"]));
  });
});

describe("broker restart", () => {
  it("reconnects to a restarted broker, resends what was not acknowledged and publishes on", async () => {
    const keys = await fleetKeys(1);
    const first = await broker(keys);
    const port = first.port;
    const router = new VirtualRouter({
      ident: "SIM000001",
      key: keys.get("SIM000001") as string,
      url: first.url,
      autoTick: false,
      behaviour: QUIET_BEHAVIOUR,
      maxInflight: 4,
      reconnectPeriodMs: 100,
    });
    stoppers.push(() => router.stop());
    await router.start();
    await waitFor(() => router.stats.acked === PER_CONNECT, "the first round acknowledged");

    // Hold the next round so it is in flight, unacknowledged, when the broker goes away.
    first.hold = true;
    router.tick();
    await waitFor(() => first.held.length >= 1 && router.stats.inflight === 4, "a round in flight");
    const unacked = first.held.map((entry) => JSON.parse(entry.payload.toString("utf8")).seq as number);
    await first.close();
    brokers.splice(brokers.indexOf(first), 1);
    await waitFor(() => !router.stats.connected, "the router to notice");
    router.tick(); // reports keep coming while the broker is down
    expect(router.stats.queued).toBeGreaterThan(0);

    const second = await broker(keys, port);
    await waitFor(() => router.stats.connected && router.stats.connects === 2, "the reconnection", 10_000);
    await waitFor(
      () => router.stats.inflight === 0 && router.stats.queued === 0,
      "everything sent and acknowledged",
      10_000,
    );
    const seqs = second.received.map((message) => JSON.parse(message.payload.toString("utf8")).seq as number);
    for (const seq of unacked) expect(seqs).toContain(seq);
    expect(receivedOn(second, "/hello")).toHaveLength(1);
    expect(second.received.every((message) => parseDeviceMessage(message.topic, message.payload).ok)).toBe(
      true,
    );
    // Every collect made before, during and after the outage reached one broker or the other.
    const allSeqs = new Set(
      [...first.received, ...second.received].map((m) => JSON.parse(m.payload.toString()).seq),
    );
    expect(allSeqs.size).toBe(2 * PER_CONNECT + 2 * COLLECT_TYPES.length);

    const before = second.received.length;
    router.tick();
    await waitFor(() => second.received.length === before + COLLECT_TYPES.length, "publishing to resume");
  });
});
