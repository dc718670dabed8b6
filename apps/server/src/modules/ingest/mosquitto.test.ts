import { randomBytes } from "node:crypto";
import { collectTopic, eventTopic } from "@cellfleet/contract";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import {
  boardReport,
  clearSession,
  envelope,
  eventually,
  insertDevice,
  modemsReport,
  startTestIngest,
} from "./ingest.test-support";

// Ingest through the external broker (the Mosquitto on 127.0.0.1:1883 of the dev machine and CI),
// with MQTT_URL. Mosquitto here allows anonymous clients, so devices connect without the HTTP
// auth hook (tested on its own in mqtt.routes.test.ts); the idents are unique per run.
const MQTT_URL = process.env.TEST_MQTT_URL ?? "mqtt://127.0.0.1:1883";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function publishAsDevice(ident: string, messages: Array<[string, unknown]>): Promise<void> {
  const client = await mqtt.connectAsync(MQTT_URL, { clientId: ident, username: ident, reconnectPeriod: 0 });
  try {
    for (const [topic, body] of messages) await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

describe("ingest through Mosquitto (MQTT_URL)", () => {
  it("stores reports published to the external broker", async () => {
    const runtime = await startTestIngest(t, { mqttUrl: MQTT_URL });
    try {
      expect(runtime.gateway.mode).toBe("external");
      const d = await insertDevice(t, (await buildDomain(t)).id);
      await publishAsDevice(d.ident, [
        [collectTopic(d.ident, "board"), boardReport(1)],
        [collectTopic(d.ident, "modems"), modemsReport(2, 17)],
        [
          eventTopic(d.ident),
          { ...envelope(3), kind: "time_sync_error", level: "error", message: "NTP", details: {} },
        ],
        [collectTopic(d.ident, "board"), boardReport(1)],
      ]);
      await eventually(async () => {
        const row = await t.db
          .selectFrom("devices")
          .selectAll()
          .where("id", "=", d.id)
          .executeTakeFirstOrThrow();
        return row.signal_csq === 17 && row.events_total === 1;
      }, "the device's reports in the database");
      const collects = await t.db
        .selectFrom("device_collects")
        .select(["type"])
        .where("device_id", "=", d.id)
        .execute();
      expect(collects.map((c) => c.type).sort()).toEqual(["board", "modems"]);
      expect(
        await t.db.selectFrom("events").select("id").where("device_id", "=", d.id).execute(),
      ).toHaveLength(1);
    } finally {
      await runtime.close();
    }
  });

  it("splits reports through the shared subscription group when asked to (several nodes)", async () => {
    const runtime = await startTestIngest(t, { mqttUrl: MQTT_URL, sharedSubscription: true });
    try {
      const d = await insertDevice(t, (await buildDomain(t)).id);
      await publishAsDevice(d.ident, [[collectTopic(d.ident, "board"), boardReport(9)]]);
      await eventually(async () => {
        const row = await t.db
          .selectFrom("device_collects")
          .select("seq")
          .where("device_id", "=", d.id)
          .executeTakeFirst();
        return Number(row?.seq) === 9;
      }, "the report through $share");
    } finally {
      await runtime.close();
    }
  });

  it("gets the reports published while the server was away, from its persistent session", async () => {
    const clientId = `cellfleet-test-${randomBytes(4).toString("hex")}`;
    const d = await insertDevice(t, (await buildDomain(t)).id);
    const first = await startTestIngest(t, { mqttUrl: MQTT_URL, clientId });
    await first.close();
    await publishAsDevice(d.ident, [[collectTopic(d.ident, "board"), boardReport(5, 500)]]);
    const second = await startTestIngest(t, { mqttUrl: MQTT_URL, clientId });
    try {
      await eventually(async () => {
        const row = await t.db
          .selectFrom("device_collects")
          .select("seq")
          .where("device_id", "=", d.id)
          .executeTakeFirst();
        return Number(row?.seq) === 5;
      }, "the report queued by the broker");
    } finally {
      await second.close();
      // Leave no persistent session behind on the shared broker.
      await clearSession(MQTT_URL, clientId);
    }
  });
});
