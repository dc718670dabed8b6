import {
  collectTopic,
  commandTopic,
  deriveDeviceToken,
  eventTopic,
  noticeTopic,
  PROTOCOL_VERSION,
} from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { connectDynsec } from "../../platform/mqtt/dynsec";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { syncBrokerAccounts } from "../broker-accounts/broker-accounts.service";
import { prepareExternalBroker } from "../broker-accounts/broker-accounts.start";
import { type OwnMosquitto, startOwnMosquitto } from "../broker-accounts/mosquitto-dynsec.test-support";
import type { DeviceIngest } from "./ingest.runtime";
import {
  boardReport,
  clearSession,
  connectDevice,
  envelope,
  eventually,
  insertDevice,
  publishJson,
  startTestIngest,
  uniqueIdent,
} from "./ingest.test-support";

// Behind Mosquitto with the dynamic-security plugin (the repo's deploy/mosquitto/cellfleet.conf, a
// broker of this file's own): what issue 25 found the document promised and the code did not do.

let broker: OwnMosquitto;
let t: TestApp;
const clients: MqttClient[] = [];
const runtimes: DeviceIngest[] = [];

beforeAll(async () => {
  broker = await startOwnMosquitto();
  t = await createTestApp({ config: { mqttUrl: broker.serverUrl, mqttDynsec: true }, runJobs: false });
  await prepareExternalBroker(t.config, { log: { info() {} } });
}, 30_000);
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});
afterAll(async () => {
  await t?.close();
  await broker?.close();
});

async function startNode(
  options: { clientId?: string; sharedSubscription?: boolean; shareGroup?: string } = {},
) {
  const runtime = await startTestIngest(t, { mqttUrl: broker.serverUrl, ...options });
  runtimes.push(runtime);
  return runtime;
}

/** A device of a new domain with its broker account, connected to the broker. */
async function connectedDevice() {
  const d = await insertDevice(t, (await buildDomain(t)).id);
  const dynsec = await connectDynsec(broker.serverUrl, { clientId: uniqueIdent("dynsec") });
  await syncBrokerAccounts(t.db, dynsec, [d.ident]);
  await dynsec.close();
  const client = await connectDevice(broker.url, d.ident, await deriveDeviceToken(d.ident, d.key ?? ""));
  clients.push(client);
  return { d, client };
}

const storedBoardSeq = async (deviceId: string) => {
  const row = await t.db
    .selectFrom("device_collects")
    .select("seq")
    .where("device_id", "=", deviceId)
    .where("type", "=", "board")
    .executeTakeFirst();
  return Number(row?.seq ?? -1);
};

describe("behind Mosquitto", () => {
  it("tells a device why its unknown v1 topic was refused, on its notice topic (item 2)", async () => {
    const runtime = await startNode();
    const { d, client } = await connectedDevice();
    const notices: Array<{ reason: string; topic: string }> = [];
    client.on("message", (topic, payload) => {
      if (topic === noticeTopic(d.ident)) notices.push(JSON.parse(payload.toString()));
    });
    await client.subscribeAsync(noticeTopic(d.ident), { qos: 1 });
    await publishJson(client, `cellfleet/v1/${d.ident}/collect/wifi`, envelope(1));
    await eventually(() => notices.length > 0, "a notice through Mosquitto");
    expect(notices[0]).toMatchObject({
      reason: "unsupported_topic",
      topic: `cellfleet/v1/${d.ident}/collect/wifi`,
    });
    expect(runtime.gateway.stats().refused.unsupported_topic).toBe(1);
  });

  it("refuses a wrong token with CONNACK 5, and takes MQTT 3.1 (protocol level 3) with any ident", async () => {
    await startNode();
    const { d, client } = await connectedDevice();
    await client.endAsync();
    const token = await deriveDeviceToken(d.ident, d.key ?? "");
    const refused = await connectDevice(broker.url, d.ident, "0".repeat(64)).then(
      () => null,
      (error: { code?: number }) => error.code,
    );
    expect(refused).toBe(5);
    const v31 = (ident: string, password: string) =>
      mqtt
        .connectAsync(broker.url, {
          clientId: ident,
          username: ident,
          password,
          protocolId: "MQIsdp",
          protocolVersion: 3,
          reconnectPeriod: 0,
        })
        .then(
          (connected) => {
            clients.push(connected);
            return null;
          },
          (error: { code?: number }) => error.code,
        );
    expect(await v31(d.ident, token)).toBeNull();
    // MQTT 3.1 allows client ids of 23 characters at most; Mosquitto takes a longer ident anyway.
    const long = await insertDevice(t, (await buildDomain(t)).id, {
      ident: uniqueIdent("LONGIDENTPAST23CHARS"),
    });
    const dynsec = await connectDynsec(broker.serverUrl, { clientId: uniqueIdent("dynsec") });
    await syncBrokerAccounts(t.db, dynsec, [long.ident]);
    await dynsec.close();
    expect(await v31(long.ident, long.token ?? "")).toBeNull();
  });

  it("does not hear its own command publishes, so it counts none as a refusal (item 5)", async () => {
    const runtime = await startNode();
    const { d, client } = await connectedDevice();
    const command = {
      v: PROTOCOL_VERSION,
      seq: 1,
      ts: Date.now(),
      id: "c1",
      type: "shell",
      args: { script: "true" },
    };
    await runtime.gateway.publish(commandTopic(d.ident), JSON.stringify(command));
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(5));
    await eventually(async () => (await storedBoardSeq(d.id)) === 5, "the board stored");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(runtime.gateway.stats().refused.bad_topic).toBe(0);
  });

  it("answers a forbidden subscription with SUBACK 0x80 and keeps the connection; closes it for a forbidden publish (item 4)", async () => {
    const runtime = await startNode();
    const { client } = await connectedDevice();
    const refused = await client.subscribeAsync(commandTopic(uniqueIdent()), { qos: 1 }).then(
      () => null,
      (error: { packet?: { granted?: number[] } }) => error.packet?.granted,
    );
    expect(refused).toEqual([128]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(client.connected).toBe(true);

    const other = await insertDevice(t, (await buildDomain(t)).id);
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.publish(collectTopic(other.ident, "board"), JSON.stringify(boardReport(3)), { qos: 1 });
    await closed;
    expect(await storedBoardSeq(other.id)).toBe(-1);
    expect(runtime.gateway.stats().accepted).toBe(0);
  });

  it("drops a node's plain subscription when it switches to the shared one (item 7)", async () => {
    const clientId = `cellfleet-test-${uniqueIdent().toLowerCase()}`;
    const shareGroup = uniqueIdent("g").toLowerCase();
    try {
      const plain = await startNode({ clientId });
      await plain.close();
      runtimes.splice(runtimes.indexOf(plain), 1);
      // The same node back with MQTT_SHARED_SUBSCRIPTION=1, beside a second node of its group.
      const a = await startNode({ clientId, sharedSubscription: true, shareGroup });
      const b = await startNode({ sharedSubscription: true, shareGroup });
      const { d, client } = await connectedDevice();
      const REPORTS = 20;
      for (let seq = 1; seq <= REPORTS; seq++)
        await publishJson(client, collectTopic(d.ident, "board"), boardReport(seq));
      await eventually(async () => (await storedBoardSeq(d.id)) === REPORTS, "the last board stored");
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Each report reached one node: the group splits them, no leftover subscription copies them.
      expect(a.gateway.stats().accepted + b.gateway.stats().accepted).toBe(REPORTS);
    } finally {
      await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
      await clearSession(broker.serverUrl, clientId);
    }
  });

  it("keeps what it acknowledged while the server is away across an orderly broker restart (item 6)", async () => {
    const clientId = `cellfleet-test-${uniqueIdent().toLowerCase()}`;
    try {
      const first = await startNode({ clientId });
      await first.close();
      runtimes.splice(runtimes.indexOf(first), 1);
      const { d, client } = await connectedDevice();
      const EVENTS = 50;
      for (let seq = 1; seq <= EVENTS; seq++)
        await publishJson(client, eventTopic(d.ident), {
          ...envelope(seq),
          kind: "gpio_value_change",
          level: "info",
          message: `pin ${seq}`,
          details: {},
        });
      // Every one was acknowledged by the broker; it restarts (SIGTERM: it writes its persistence file).
      await broker.stop();
      await broker.start();
      await startNode({ clientId });
      const stored = async () =>
        (await t.db.selectFrom("events").select("id").where("device_id", "=", d.id).execute()).length;
      await eventually(async () => (await stored()) === EVENTS, `${EVENTS} events stored`, 15_000);
    } finally {
      await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
      await clearSession(broker.serverUrl, clientId);
    }
  });
});
