import { collectTopic, deriveDeviceToken, helloTopic, publisherClientId } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callApi } from "../../test/accounting-helpers";
import { buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "../ingest/ingest.runtime";
import {
  boardReport,
  connectDevice,
  envelope,
  eventually,
  publishJson,
  startTestIngest,
  uniqueIdent,
} from "../ingest/ingest.test-support";
import { prepareExternalBroker } from "./broker-accounts.start";
import { type OwnMosquitto, startOwnMosquitto } from "./mosquitto-dynsec.test-support";

// Stock Mosquitto enforcing the protocol's rules (issue 17): the server provisions each router's
// account and ACL through the dynamic-security plugin, through durable jobs, when a router is
// created, given another key or deleted.

const KEY_A = "A1".repeat(32);
const KEY_B = "B2".repeat(32);

describe("Mosquitto with the dynamic-security plugin (MQTT_DYNSEC=1)", () => {
  let broker: OwnMosquitto;
  let t: TestApp;
  let runtime: DeviceIngest;
  let admin: string;

  beforeAll(async () => {
    broker = await startOwnMosquitto();
    t = await createTestApp({ config: { mqttUrl: broker.serverUrl, mqttDynsec: true } });
    await prepareExternalBroker(t.config, { jobs: t.app.jobs, log: { info() {} } });
    runtime = await startTestIngest(t, { mqttUrl: broker.serverUrl, clientId: "cellfleet-test-server" });
    const user = await buildUser(t, { role: 2 });
    admin = await signIn(t.app, user);
  }, 30_000);
  afterAll(async () => {
    await runtime?.close();
    await t?.close();
    await broker?.close();
  });

  async function settle(): Promise<void> {
    await t.jobs.runUntilIdle();
  }

  /** The router's second connection, for publishing (docs/device-protocol.md 2, ADR 030). */
  async function connectPublisher(ident: string, key: string) {
    return connectDevice(broker.url, publisherClientId(ident), await deriveDeviceToken(ident, key));
  }

  it("lets a created router in with its token, its own topics only, and follows a new key and a delete", async () => {
    const ident = uniqueIdent("MQ");
    const other = uniqueIdent("MQ");
    // Before the router exists the broker refuses it.
    await expect(connectDevice(broker.url, ident, await deriveDeviceToken(ident, KEY_A))).rejects.toThrow();

    const created = await callApi(t.app, "POST", "/api/devices/new", admin, { ident, aes_key: KEY_A });
    expect(created.status, created.text).toBe(200);
    await callApi(t.app, "POST", "/api/devices/new", admin, { ident: other, aes_key: KEY_B });
    await settle();

    const client = await connectDevice(broker.url, ident, await deriveDeviceToken(ident, KEY_A));
    await publishJson(client, collectTopic(ident, "board"), boardReport(1, 777));
    await eventually(async () => {
      const row = await t.db
        .selectFrom("device_collects")
        .innerJoin("devices", "devices.id", "device_collects.device_id")
        .select("device_collects.data")
        .where("devices.ident", "=", ident)
        .executeTakeFirst();
      return (row?.data as { uptime?: number } | undefined)?.uptime === 777;
    }, "the report through Mosquitto");
    const own = await client.subscribeAsync(`cellfleet/v1/${ident}/command`, { qos: 1 });
    expect(own[0]?.qos).toBe(1);
    // Its publishing connection `{ident}-p` beside it, with the same token: reports as the router.
    const publisher = await connectPublisher(ident, KEY_A);
    await publishJson(publisher, collectTopic(ident, "board"), boardReport(2, 779));
    await eventually(async () => {
      const row = await t.db
        .selectFrom("device_collects")
        .innerJoin("devices", "devices.id", "device_collects.device_id")
        .select("device_collects.data")
        .where("devices.ident", "=", ident)
        .executeTakeFirst();
      return (row?.data as { uptime?: number } | undefined)?.uptime === 779;
    }, "the report through the publishing connection");
    expect(client.connected).toBe(true);
    const publisherClosed = new Promise<void>((resolve) => publisher.once("close", () => resolve()));
    publisher.publish(collectTopic(other, "board"), JSON.stringify(boardReport(3, 998)), { qos: 1 });
    await publisherClosed;
    publisher.end(true);
    // Its own topics of another version or an unknown collect type do not close the connection.
    await publishJson(client, `cellfleet/v2/${ident}/hello`, { ...envelope(5), v: 2 });
    await publishJson(client, `cellfleet/v1/${ident}/collect/wifi`, envelope(6));
    await publishJson(client, collectTopic(ident, "board"), boardReport(7, 778));
    expect(client.connected).toBe(true);
    // Another router's topic: dropped, and Mosquitto closes the connection, as the embedded broker does.
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.publish(collectTopic(other, "board"), JSON.stringify(boardReport(2, 999)), { qos: 1 });
    await closed;
    client.end(true);
    const again0 = await connectDevice(broker.url, ident, await deriveDeviceToken(ident, KEY_A));
    const denied = await again0.subscribeAsync(`cellfleet/v1/${other}/command`, { qos: 1 }).catch(() => []);
    expect(denied.every((grant) => grant.qos === 128)).toBe(true);
    again0.end(true);
    const others = await t.db
      .selectFrom("device_collects")
      .innerJoin("devices", "devices.id", "device_collects.device_id")
      .select("device_collects.seq")
      .where("devices.ident", "=", other)
      .execute();
    expect(others).toHaveLength(0);
    // Client id must be the ident.
    await expect(
      (async () => {
        const { default: mqtt } = await import("mqtt");
        return mqtt.connectAsync(broker.url, {
          clientId: `${ident}x`,
          username: ident,
          password: await deriveDeviceToken(ident, KEY_A),
          reconnectPeriod: 0,
        });
      })(),
    ).rejects.toThrow();

    // A new key: the old token is refused, the new one accepted.
    const id = String(created.body._id);
    const rekeyed = await callApi(t.app, "POST", `/api/device/${id}/key`, admin, {});
    expect(rekeyed.status, rekeyed.text).toBe(200);
    const newKey = String(rekeyed.body.aes_key);
    await settle();
    await expect(connectDevice(broker.url, ident, await deriveDeviceToken(ident, KEY_A))).rejects.toThrow();
    await expect(connectPublisher(ident, KEY_A)).rejects.toThrow();
    (await connectPublisher(ident, newKey)).end(true);
    const again = await connectDevice(broker.url, ident, await deriveDeviceToken(ident, newKey));
    await publishJson(again, helloTopic(ident), {
      ...envelope(3),
      model: "RUT955",
      firmware: "1",
      serial: "1",
      uptime: 1,
      agent_version: "1",
      modem_count: 1,
    });
    await again.endAsync();

    // Deleted: refused.
    expect((await callApi(t.app, "DELETE", `/api/device/${id}`, admin)).status).toBe(200);
    await settle();
    await expect(connectDevice(broker.url, ident, await deriveDeviceToken(ident, newKey))).rejects.toThrow();
    await expect(connectPublisher(ident, newKey)).rejects.toThrow();
  }, 60_000);
});
