import { collectTopic } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "./ingest.runtime";
import {
  connectDevice,
  envelope,
  eventually,
  insertDevice,
  publishJson,
  startTestIngest,
} from "./ingest.test-support";

// Issue 31, ADR 045: collect/gps places a router on the map, unless an admin pinned it.

let t: TestApp;
let runtime: DeviceIngest;
let domainId: string;

beforeAll(async () => {
  t = await createTestApp();
  runtime = await startTestIngest(t);
  domainId = (await buildDomain(t)).id;
});
afterAll(async () => {
  await runtime.close();
  await t.close();
});

const positionOf = (id: string) =>
  t.db
    .selectFrom("devices")
    .select(["latitude", "longitude", "position_source"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("collect/gps", () => {
  it("stores the latest fix as the router's position, and keeps an admin's pin", async () => {
    const placed = await insertDevice(t, domainId);
    const pinned = await insertDevice(t, domainId);
    await t.db
      .updateTable("devices")
      .set({ latitude: 10, longitude: 20, position_source: "admin" })
      .where("id", "=", pinned.id)
      .execute();
    const [placedClient, pinnedClient] = await Promise.all(
      [placed, pinned].map((device) =>
        connectDevice(runtime.gateway.url, device.ident, device.token ?? undefined),
      ),
    );
    if (!placedClient || !pinnedClient) throw new Error("both routers connect");
    const clients = [placedClient, pinnedClient];
    try {
      for (const [client, device] of [
        [placedClient, placed],
        [pinnedClient, pinned],
      ] as const) {
        await publishJson(client, collectTopic(device.ident, "gps"), {
          ...envelope(1),
          lat: 55.7558,
          lng: 37.6173,
          accuracy: 8,
        });
      }
      await eventually(async () => (await positionOf(placed.id)).latitude !== null, "the fix stored");
      expect(await positionOf(placed.id)).toEqual({
        latitude: 55.7558,
        longitude: 37.6173,
        position_source: "gps",
      });
      await publishJson(placedClient, collectTopic(placed.ident, "gps"), {
        ...envelope(2),
        lat: -33.9,
        lng: 18.4,
      });
      await eventually(async () => (await positionOf(placed.id)).latitude === -33.9, "the next fix stored");
      // The pinned router's fix is kept as its collect, its position stays the admin's.
      await eventually(
        async () =>
          (await t.db
            .selectFrom("device_collects")
            .select("type")
            .where("device_id", "=", pinned.id)
            .where("type", "=", "gps")
            .executeTakeFirst()) !== undefined,
        "the pinned router's fix stored as a collect",
      );
      expect(await positionOf(pinned.id)).toEqual({ latitude: 10, longitude: 20, position_source: "admin" });
    } finally {
      for (const client of clients) await client.endAsync(true);
    }
  });
});
