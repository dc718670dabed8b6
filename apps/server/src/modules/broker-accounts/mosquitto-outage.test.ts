import { deriveDeviceToken, eventTopic } from "@cellfleet/contract";
import type { MqttClient } from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectDynsec } from "../../platform/mqtt/dynsec";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "../ingest/ingest.runtime";
import {
  connectDevice,
  envelope,
  eventually,
  insertDevice,
  startTestIngest,
} from "../ingest/ingest.test-support";
import { syncBrokerAccounts } from "./broker-accounts.service";
import { prepareExternalBroker } from "./broker-accounts.start";
import { type OwnMosquitto, startOwnMosquitto } from "./mosquitto-dynsec.test-support";

// Issue 17: with an external broker the router's PUBACK comes from the broker, before our commit.
// With deploy/mosquitto/cellfleet.conf (persistence, unlimited queue) a server stopped for 60 s
// while routers go on publishing gets every acknowledged report once it is back.

const ROUTERS = 20;
const RATE_PER_ROUTER = 5; // reports a second: 6,000 during the outage, past Mosquitto's default queue of 1,000
const OUTAGE_MS = Number(process.env.OUTAGE_MS ?? 60_000);

describe("a server away for 60 s behind Mosquitto", () => {
  let broker: OwnMosquitto;
  let t: TestApp;

  beforeAll(async () => {
    broker = await startOwnMosquitto();
    t = await createTestApp({ config: { mqttUrl: broker.serverUrl, mqttDynsec: true }, runJobs: false });
    await prepareExternalBroker(t.config, { log: { info() {} } });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await broker?.close();
  });

  it(
    "loses nothing the broker acknowledged and stores nothing twice",
    async () => {
      const domain = await buildDomain(t);
      const devices = await Promise.all(Array.from({ length: ROUTERS }, () => insertDevice(t, domain.id)));
      const dynsec = await connectDynsec(broker.serverUrl, { clientId: "outage-test-dynsec" });
      await syncBrokerAccounts(
        t.db,
        dynsec,
        devices.map((d) => d.ident),
      );
      await dynsec.close();

      const clientId = "cellfleet-outage-test";
      let runtime: DeviceIngest | null = await startTestIngest(t, { mqttUrl: broker.serverUrl, clientId });
      const clients: MqttClient[] = await Promise.all(
        devices.map(async (d) =>
          connectDevice(broker.url, d.ident, await deriveDeviceToken(d.ident, d.key ?? "")),
        ),
      );
      const acknowledged = new Map<string, number>(devices.map((d) => [d.id, 0]));
      let seq = 0;
      let isPublishing = true;
      const loops = devices.map(async (d, index) => {
        const client = clients[index] as MqttClient;
        while (isPublishing) {
          const body = {
            ...envelope(++seq),
            kind: "gpio_value_change",
            level: "info",
            message: "pin",
            details: {},
          };
          await client.publishAsync(eventTopic(d.ident), JSON.stringify(body), { qos: 1 });
          acknowledged.set(d.id, (acknowledged.get(d.id) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, 1000 / RATE_PER_ROUTER));
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await runtime.close();
      runtime = null;
      const atStop = [...acknowledged.values()].reduce((a, b) => a + b, 0);
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      const duringOutage = [...acknowledged.values()].reduce((a, b) => a + b, 0) - atStop;
      runtime = await startTestIngest(t, { mqttUrl: broker.serverUrl, clientId });
      await new Promise((resolve) => setTimeout(resolve, 3000));
      isPublishing = false;
      await Promise.all(loops);
      const total = [...acknowledged.values()].reduce((a, b) => a + b, 0);
      try {
        expect(duringOutage).toBeGreaterThan(ROUTERS * RATE_PER_ROUTER * (OUTAGE_MS / 1000) * 0.5);
        const stored = async () => {
          const rows = await t.db
            .selectFrom("events")
            .select(({ fn }) => ["device_id", fn.countAll<string>().as("n")])
            .where("domain_id", "=", domain.id)
            .groupBy("device_id")
            .execute();
          return new Map(rows.map((row) => [row.device_id, Number(row.n)]));
        };
        await eventually(
          async () => [...(await stored()).values()].reduce((a, b) => a + b, 0) >= total,
          `${total} events stored`,
          60_000,
        );
        expect(await stored()).toEqual(acknowledged);
        console.info(
          `mosquitto outage: ${total} reports acknowledged by the broker, ${duringOutage} during the ${OUTAGE_MS / 1000} s outage; all stored once`,
        );
      } finally {
        await Promise.all(clients.map((client) => client.endAsync(true)));
        await runtime?.close();
      }
    },
    OUTAGE_MS + 120_000,
  );
});
