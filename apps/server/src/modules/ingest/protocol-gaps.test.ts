import { collectTopic, eventTopic, helloTopic, noticeTopic } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "./ingest.runtime";
import {
  boardReport,
  connectDevice,
  envelope,
  eventually,
  insertDevice,
  publishJson,
  startTestIngest,
  uniqueIdent,
} from "./ingest.test-support";

// The gaps an outside agent found (issue 17): restarted counters, unknown topics, MQTT 5, stats.

let t: TestApp;
let runtime: DeviceIngest;
let url: string;
const clients: MqttClient[] = [];

beforeAll(async () => {
  t = await createTestApp();
  runtime = await startTestIngest(t);
  url = runtime.gateway.url;
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});
afterAll(async () => {
  await runtime.close();
  await t.close();
});

async function connectedDevice() {
  const d = await insertDevice(t, (await buildDomain(t)).id);
  const client = await connectDevice(url, d.ident, d.token ?? undefined);
  clients.push(client);
  return { d, client };
}

const hello = (seq: number, epoch?: number) => ({
  ...envelope(seq),
  ...(epoch === undefined ? {} : { epoch }),
  model: "RUT955",
  firmware: "RUT9_R_00.07.06.10",
  serial: "1109876543",
  uptime: 10,
  agent_version: "1.0.0",
  modem_count: 1,
});

const event = (seq: number, message: string, epoch?: number) => ({
  ...envelope(seq),
  ...(epoch === undefined ? {} : { epoch }),
  kind: "router_started",
  level: "info",
  message,
  details: {},
});

describe("a router whose sequence numbers restart", () => {
  it("is shown again after a new epoch, and its new events do not collide with the old ones", async () => {
    const { d, client } = await connectedDevice();
    await publishJson(client, helloTopic(d.ident), hello(5000, 1));
    await publishJson(client, collectTopic(d.ident, "board"), { ...boardReport(5001, 86_400), epoch: 1 });
    await publishJson(client, eventTopic(d.ident), event(5002, "before the reset", 1));
    // Factory reset: numbering starts again at 1 with a new epoch.
    await publishJson(client, helloTopic(d.ident), hello(1, 2));
    await publishJson(client, collectTopic(d.ident, "board"), { ...boardReport(2, 42), epoch: 2 });
    await publishJson(client, eventTopic(d.ident), event(5002, "after the reset, same seq", 2));
    const board = await t.db
      .selectFrom("device_collects")
      .select(["data", "seq"])
      .where("device_id", "=", d.id)
      .where("type", "=", "board")
      .executeTakeFirstOrThrow();
    expect((board.data as { uptime: number }).uptime).toBe(42);
    const events = await t.db
      .selectFrom("events")
      .select(["message"])
      .where("device_id", "=", d.id)
      .orderBy("seq")
      .execute();
    expect(events.map((e) => e.message)).toEqual(["before the reset", "after the reset, same seq"]);
    // A late repeat of the old epoch lands as the old report: a duplicate, not a new event.
    const before = runtime.ingest.stats().duplicates;
    await publishJson(client, eventTopic(d.ident), event(5002, "before the reset", 1));
    expect(runtime.ingest.stats().duplicates).toBe(before + 1);
    expect(runtime.ingest.stats().epochsRestarted).toBeGreaterThanOrEqual(2);
  });

  it("is shown again after a new epoch that follows a hello and many collects (issue 25)", async () => {
    const { d, client } = await connectedDevice();
    await publishJson(client, helloTopic(d.ident), hello(1000, 7));
    // Collects that change nothing on the device row: its last_seq is not written for them.
    for (let seq = 1001; seq <= 1030; seq++)
      await publishJson(client, collectTopic(d.ident, "board"), { ...boardReport(seq, seq), epoch: 7 });
    await publishJson(client, helloTopic(d.ident), hello(1, 8));
    await publishJson(client, collectTopic(d.ident, "board"), { ...boardReport(2, 42), epoch: 8 });
    const board = await t.db
      .selectFrom("device_collects")
      .select(["data"])
      .where("device_id", "=", d.id)
      .where("type", "=", "board")
      .executeTakeFirstOrThrow();
    expect((board.data as { uptime: number }).uptime).toBe(42);
  });

  it("without an epoch a lower seq still does not replace the shown state (documented rule)", async () => {
    const { d, client } = await connectedDevice();
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(900, 86_400));
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(3, 42));
    const board = await t.db
      .selectFrom("device_collects")
      .select(["data"])
      .where("device_id", "=", d.id)
      .executeTakeFirstOrThrow();
    expect((board.data as { uptime: number }).uptime).toBe(86_400);
  });
});

describe("unknown topics", () => {
  it("are acknowledged without closing the connection, counted, and the router is told why", async () => {
    const { d, client } = await connectedDevice();
    const notices: Array<{ reason: string; topic: string }> = [];
    client.on("message", (topic, payload) => {
      if (topic === noticeTopic(d.ident)) notices.push(JSON.parse(payload.toString()));
    });
    await client.subscribeAsync(noticeTopic(d.ident), { qos: 1 });
    const refused = () => runtime.gateway.stats().refused;
    const before = refused();
    await publishJson(client, `cellfleet/v1/${d.ident}/collect/wifi`, envelope(1));
    await publishJson(client, `cellfleet/v2/${d.ident}/hello`, { ...envelope(2), v: 2 });
    await publishJson(client, `cellfleet/v1/${d.ident}/telemetry`, envelope(3));
    expect(client.connected).toBe(true);
    expect(refused().unsupported_topic).toBe(before.unsupported_topic + 2);
    expect(refused().unsupported_version).toBe(before.unsupported_version + 1);
    await eventually(() => notices.length === 2, "two notices");
    // The second unknown topic within a minute is counted but not told again: notices never flood.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(notices.map((n) => [n.reason, n.topic])).toEqual([
      ["unsupported_topic", `cellfleet/v1/${d.ident}/collect/wifi`],
      ["unsupported_version", `cellfleet/v2/${d.ident}/hello`],
    ]);
    // The connection still carries reports.
    await publishJson(client, helloTopic(d.ident), hello(4));
    const row = await t.db.selectFrom("devices").select(["model"]).where("id", "=", d.id).executeTakeFirst();
    expect(row?.model).toBe("RUT955");
  });

  it("still closes the connection for another device's topic", async () => {
    const { client } = await connectedDevice();
    const other = await insertDevice(t, (await buildDomain(t)).id);
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.publish(`cellfleet/v1/${other.ident}/collect/wifi`, "{}", { qos: 1 });
    await closed;
  });
});

describe("MQTT 5", () => {
  it("is refused with reason code 0x84 and a reason string, and counted", async () => {
    const d = await insertDevice(t, (await buildDomain(t)).id);
    const before = runtime.gateway.stats().refused.unsupported_protocol;
    const error = await mqtt
      .connectAsync(url, {
        clientId: d.ident,
        username: d.ident,
        password: d.token ?? "",
        protocolVersion: 5,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      })
      .then(
        () => null,
        (e: unknown) => e as Error & { code?: number },
      );
    expect(error?.code).toBe(0x84);
    expect(error?.message).toMatch(/Unsupported Protocol Version/i);
    expect(runtime.gateway.stats().refused.unsupported_protocol).toBe(before + 1);
  });
});

describe("MQTT 3.1 and a wrong token on the embedded broker", () => {
  it("refuses a wrong token with CONNACK 4, and takes MQTT 3.1 (protocol level 3) even with an ident past 23 characters", async () => {
    const d = await insertDevice(t, (await buildDomain(t)).id, {
      ident: uniqueIdent("LONGIDENTPAST23CHARS"),
    });
    const refused = await connectDevice(url, d.ident, "0".repeat(64)).then(
      () => null,
      (error: { code?: number }) => error.code,
    );
    expect(refused).toBe(4);
    const v31 = await mqtt
      .connectAsync(url, {
        clientId: d.ident,
        username: d.ident,
        password: d.token ?? "",
        protocolId: "MQIsdp",
        protocolVersion: 3,
        reconnectPeriod: 0,
        connectTimeout: 5000,
      })
      .then(
        (client) => {
          clients.push(client);
          return null;
        },
        (error: { code?: number; message?: string }) => error.code ?? error.message,
      );
    expect(v31).toBe(2);
  });
});

describe("GET /api/mqtt/stats figures", () => {
  it("counts connections open now, and a repeated report as a duplicate, not as stored", async () => {
    const open = () => runtime.gateway.stats().connections ?? -1;
    const start = open();
    const { d, client } = await connectedDevice();
    expect(open()).toBe(start + 1);
    const { client: second } = await connectedDevice();
    expect(open()).toBe(start + 2);
    await second.endAsync();
    await eventually(() => open() === start + 1, "one connection closed");

    const stats = () => runtime.ingest.stats();
    const before = stats();
    await publishJson(client, eventTopic(d.ident), event(77, "once"));
    await publishJson(client, eventTopic(d.ident), event(77, "once"));
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(78));
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(78));
    expect(stats().stored - before.stored).toBe(2);
    expect(stats().duplicates - before.duplicates).toBe(2);
    expect(runtime.gateway.stats().connectionsAccepted).toBeGreaterThanOrEqual(2);
  });
});
