import { randomBytes } from "node:crypto";
import { COLLECT_TYPES, collectTopic, eventTopic, helloTopic, MAX_PAYLOAD_BYTES } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_PACKET_BYTES } from "../../platform/mqtt/embedded-broker";
import { acceptPublished } from "../../platform/mqtt/reports";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "./ingest.runtime";
import {
  boardReport,
  connectDevice,
  insertDevice,
  publishJson,
  startTestIngest,
} from "./ingest.test-support";

let t: TestApp;
let runtime: DeviceIngest;
beforeAll(async () => {
  t = await createTestApp();
  runtime = await startTestIngest(t);
});
afterAll(async () => {
  await runtime.close();
  await t.close();
});

/** A deterministic pseudo-random source, so a failure can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe("malformed input", () => {
  it("counts random topics and bytes as refusals and never throws or stalls", async () => {
    const random = mulberry32(42);
    const bytes = (n: number) => Uint8Array.from({ length: n }, () => Math.floor(random() * 256));
    const d = await insertDevice(t, (await buildDomain(t)).id);
    const topics = [
      () => String.fromCharCode(...bytes(Math.floor(random() * 40))),
      () => `cellfleet/v1/${d.ident}/${String.fromCharCode(...bytes(5))}`,
      () => collectTopic(d.ident, COLLECT_TYPES[Math.floor(random() * COLLECT_TYPES.length)] ?? "board"),
      () => "cellfleet/v2/x/hello",
      () => `${"a/".repeat(200)}`,
    ];
    const payloads = [
      () => bytes(Math.floor(random() * 64)),
      () => new TextEncoder().encode(JSON.stringify({ v: 1, seq: random() * 1e6, ts: "x" })),
      () => new TextEncoder().encode("[1,2,3]"),
      () => new TextEncoder().encode(`{"v":1,"seq":1,"ts":1,"modems":[${"{},".repeat(20)}{}]}`),
      () => Uint8Array.from([0xef, 0xbb, 0xbf, 0xff, 0xfe]),
    ];
    const before = runtime.gateway.stats().refused;
    const acceptedBefore = runtime.gateway.stats().accepted;
    for (let i = 0; i < 2000; i++) {
      const topic = topics[i % topics.length]?.() ?? "";
      const payload = payloads[Math.floor(random() * payloads.length)]?.() ?? new Uint8Array();
      await acceptPublished(runtime.ingest, runtime.gateway.counters, topic, payload, d.ident);
    }
    const after = runtime.gateway.stats().refused;
    const refusedNow = (Object.keys(after) as Array<keyof typeof after>).reduce(
      (sum, key) => sum + after[key] - before[key],
      0,
    );
    expect(refusedNow).toBe(2000);
    expect(after.bad_topic - before.bad_topic).toBeGreaterThan(0);
    expect(after.not_json - before.not_json).toBeGreaterThan(0);
    expect(after.schema - before.schema).toBeGreaterThan(0);
    expect(runtime.gateway.stats().accepted).toBe(acceptedBefore);
  });

  it("refuses malformed and oversized reports over MQTT, acknowledges them, and goes on ingesting", async () => {
    const d = await insertDevice(t, (await buildDomain(t)).id);
    const client = await connectDevice(runtime.gateway.url, d.ident, d.token ?? undefined);
    try {
      const before = runtime.gateway.stats().refused;
      for (let i = 0; i < 50; i++) {
        await client.publishAsync(collectTopic(d.ident, "board"), randomBytes(1 + (i % 40)), { qos: 1 });
        await client.publishAsync(
          eventTopic(d.ident),
          JSON.stringify({ v: 1, seq: i, ts: 1, kind: "nope" }),
          { qos: 1 },
        );
      }
      await client.publishAsync(helloTopic(d.ident), Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 0x20), { qos: 1 });
      await publishJson(client, collectTopic(d.ident, "board"), boardReport(99));
      const after = runtime.gateway.stats().refused;
      // Random bytes are almost always not JSON; the rare one that is (a lone digit) fails the schema.
      expect(after.not_json - before.not_json + (after.schema - before.schema)).toBe(100);
      expect(after.not_json - before.not_json).toBeGreaterThan(40);
      expect(after.too_large - before.too_large).toBe(1);
      expect(client.connected).toBe(true);
      const row = await t.db
        .selectFrom("device_collects")
        .select("seq")
        .where("device_id", "=", d.id)
        .executeTakeFirstOrThrow();
      expect(Number(row.seq)).toBe(99);
    } finally {
      await client.endAsync(true);
    }
  });

  it("closes the connection of a packet larger than MAX_PACKET_BYTES without reading it", async () => {
    const d = await insertDevice(t, (await buildDomain(t)).id);
    const client = await connectDevice(runtime.gateway.url, d.ident, d.token ?? undefined);
    client.on("error", () => {});
    const before = runtime.gateway.stats().refused.too_large;
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.publish(collectTopic(d.ident, "board"), Buffer.alloc(MAX_PACKET_BYTES + 1, 0x20), { qos: 1 });
    await closed;
    expect(runtime.gateway.stats().refused.too_large - before).toBe(1);
    await client.endAsync(true);
  });
});
