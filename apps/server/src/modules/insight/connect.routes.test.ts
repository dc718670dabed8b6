import { type DeviceConnectInfo, isHexKey } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { callApi } from "../devices/devices.test-support";
import { createDeviceAuthenticator } from "../ingest/device-auth";
import { connectDevice, startTestIngest } from "../ingest/ingest.test-support";
import { createRefusalRecorder } from "../ingest/refusal-recorder";
import { publicBrokers } from "./connect.service";
import { rankDeclines } from "./declines.service";

// Connecting a real router: what its page tells, the key made once, the last refusal the gateway
// saw (coalesced, never the password), and the dashboard's list of routers whose signal fell.

let t: TestApp;
let domainId: string;
let admin: { username: string; password: string };
let operator: { username: string; password: string };
let device: { id: string; ident: string };

const as = async (who: { username: string; password: string }, url: string, body?: unknown) =>
  callApi(t, await signIn(t.app, who), "POST", url, body ?? {});

beforeAll(async () => {
  t = await createTestApp({ runJobs: false });
  domainId = (await buildDomain(t)).id;
  admin = await buildUser(t, { role: 2, domainId });
  operator = await buildUser(t, { role: 4, domainId });
  device = await buildDevice(t, domainId);
});
afterAll(async () => {
  await t?.close();
});

describe("where routers connect", () => {
  const base = {
    mqttPublicUrls: undefined,
    mqttUrl: undefined,
    publicUrl: "https://fleet.example.com",
    mqttPort: 1883,
  };

  it("is MQTT_PUBLIC_URL when set, plain and TLS", () => {
    expect(
      publicBrokers(
        { ...base, mqttPublicUrls: ["mqtt://mq.example.com", "mqtts://mq.example.com:8884"] },
        1883,
      ),
    ).toEqual([
      { url: "mqtt://mq.example.com:1883", is_tls: false, host: "mq.example.com", port: 1883 },
      { url: "mqtts://mq.example.com:8884", is_tls: true, host: "mq.example.com", port: 8884 },
    ]);
  });

  it("otherwise the console's host with the embedded broker's actual port, or MQTT_URL without its credentials", () => {
    expect(publicBrokers(base, 41883).map((b) => b.url)).toEqual(["mqtt://fleet.example.com:41883"]);
    expect(
      publicBrokers({ ...base, mqttUrl: "tls://server:secret@broker.internal" }, null).map((b) => b.url),
    ).toEqual(["mqtts://broker.internal:8883"]);
  });
});

describe("POST /api/device/{dev_id}/connect and /key", () => {
  it("tells any member of the domain what the router needs, and nothing of another domain's router", async () => {
    const { status, body } = await as(operator, `/api/device/${device.id}/connect`);
    expect(status).toBe(200);
    expect(body as DeviceConnectInfo).toEqual({
      ident: device.ident,
      has_key: false,
      brokers: [{ url: "mqtt://localhost:1883", is_tls: false, host: "localhost", port: 1883 }],
      is_embedded_broker: true,
      topic_root: `cellfleet/v1/${device.ident}`,
      last_refusal: null,
    });
    const stranger = await buildUser(t, { role: 2, domainId: (await buildDomain(t)).id });
    expect((await as(stranger, `/api/device/${device.id}/connect`)).body.code).toBe("DEVICE_NOT_FOUND");
  });

  it("tells the create form where routers connect", async () => {
    const { status, body } = await as(operator, "/api/devices/connect");
    expect([status, body]).toEqual([
      200,
      { brokers: [{ url: "mqtt://localhost:1883", is_tls: false, host: "localhost", port: 1883 }] },
    ]);
    expect((await callApi(t, null, "POST", "/api/devices/connect", {})).status).toBe(401);
  });

  it("makes a new 64-hex key for editors only, answered once, with which the router is let in", async () => {
    expect((await as(operator, `/api/device/${device.id}/key`)).status).toBe(403);
    const { status, body } = await as(admin, `/api/device/${device.id}/key`);
    expect(status).toBe(200);
    expect(isHexKey(body.aes_key)).toBe(true);
    const again = await as(admin, `/api/device/${device.id}/key`);
    expect(again.body.aes_key).not.toBe(body.aes_key);
    const detail = await as(operator, `/api/device/${device.id}`);
    expect(JSON.stringify(detail.body)).not.toContain(again.body.aes_key);
    expect(detail.body.device.has_key).toBe(true);
  });
});

describe("the last refusal", () => {
  it("is recorded by the gateway with the peer's address, never the password, and shown on the router's page", async () => {
    const runtime = await startTestIngest(t);
    try {
      const url = runtime.gateway.url;
      await expect(connectDevice(url, device.ident, "f".repeat(64))).rejects.toThrow();
      await expect(connectDevice(url, "NOSUCH0001", "secret-password-1")).rejects.toThrow();
    } finally {
      await runtime.close();
    }
    const { body } = await as(operator, `/api/device/${device.id}/connect`);
    expect(body.last_refusal).toEqual({
      reason: "bad_token",
      time: expect.any(Number),
      address: "127.0.0.1",
      count: 1,
    });
    const rows = await t.db.selectFrom("gateway_refusals").selectAll().orderBy("ident").execute();
    expect(rows.map((row) => [row.ident, row.reason])).toEqual([
      [device.ident, "bad_token"],
      ["NOSUCH0001", "unknown_device"],
    ]);
    expect(JSON.stringify(rows)).not.toContain("secret-password-1");
  });

  it("turns a flood of refused connects into one write per ident and flush", async () => {
    const recorder = createRefusalRecorder({
      db: t.db,
      now: t.clock.now,
      log: console,
      flushMs: 60_000,
      maxPending: 3,
    });
    const authenticate = createDeviceAuthenticator(t.db, recorder);
    for (let i = 0; i < 500; i++)
      await authenticate("FLOOD0001", "FLOOD0001", "x", { address: "203.0.113.5" });
    for (const ident of ["FLOOD0002", "FLOOD0003", "FLOOD0004"])
      recorder.record(ident, "unknown_device", undefined);
    recorder.record("not an ident!", "unknown_device", undefined);
    await recorder.close();
    expect(recorder.stats()).toEqual({ dropped: 1, writes: 1 });
    const flood = await t.db
      .selectFrom("gateway_refusals")
      .selectAll()
      .where("ident", "like", "FLOOD%")
      .orderBy("ident")
      .execute();
    expect(flood.map((row) => [row.ident, row.count, row.address])).toEqual([
      ["FLOOD0001", 500, "203.0.113.5"],
      ["FLOOD0002", 1, null],
      ["FLOOD0003", 1, null],
    ]);
  });
});

describe("routers whose signal got worse", () => {
  const row = (
    device_id: string,
    modem: string,
    now: number | null,
    before: number | null,
    rssi?: [number, number],
  ) => ({
    device_id,
    ident: device_id.toUpperCase(),
    modem,
    rsrp_now: now,
    rsrp_before: before,
    rssi_now: rssi?.[0] ?? null,
    rssi_before: rssi?.[1] ?? null,
  });

  it("ranks by the drop of the mean, one line per router, RSSI where a modem has no RSRP", () => {
    const ranked = rankDeclines([
      row("a", "1-1", -100, -85),
      row("a", "2-1", -95, -92),
      row("b", "1-1", -110, -104),
      row("c", "1-1", null, null, [-90, -70]),
      row("d", "1-1", -90, -88),
      row("e", "1-1", -80, null),
    ]);
    expect(ranked.map((r) => [r._id, r.modem, r.metric, r.change, r.quality])).toEqual([
      ["c", "1-1", "rssi", -20, "cellEdge"],
      ["a", "1-1", "rsrp", -15, "midCell"],
      ["b", "1-1", "rsrp", -6, "cellEdge"],
    ]);
  });

  it("are read from the hourly rollups of the domain's routers", async () => {
    const mark = new Date(Math.floor(t.clock.now().getTime() / 3_600_000) * 3_600_000);
    await t.db.insertInto("history_marks").values({ name: "signal-rollup", at: mark }).execute();
    const rollup = (hoursAgo: number, rsrp: number) => ({
      device_id: device.id,
      modem: "1-1",
      hour: new Date(mark.getTime() - hoursAgo * 3_600_000),
      rsrp_min: rsrp,
      rsrp_max: rsrp,
      rsrp_sum: rsrp * 60,
      rsrp_n: 60,
    });
    await t.db
      .insertInto("signal_rollups")
      .values([rollup(30, -80), rollup(40, -82), rollup(2, -101), rollup(5, -99)])
      .execute();
    const { body } = await as(operator, "/api/dashboard/signal");
    expect(body.devices).toEqual([
      {
        _id: device.id,
        ident: device.ident,
        modem: "1-1",
        metric: "rsrp",
        now: -100,
        before: -81,
        change: -19,
        quality: "midCell",
      },
    ]);
  });
});

describe("GET /api/protocol.md", () => {
  it("serves the protocol document the connect card points to, to anyone", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/protocol.md" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/markdown");
    expect(response.body).toContain("## 10. Implementing an agent");
  });
});

describe("deleting a router", () => {
  it("deletes its samples too (they have no foreign key, a trigger does it)", async () => {
    const doomed = await buildDevice(t, domainId);
    const kept = await buildDevice(t, domainId);
    const sample = (deviceId: string) => ({
      device_id: deviceId,
      modem: "1-1",
      time: t.clock.now(),
      rsrp: -90,
      rsrq: null,
      sinr: null,
      rssi: null,
      csq: 20,
    });
    await t.db
      .insertInto("signal_samples")
      .values([sample(doomed.id), sample(doomed.id), sample(kept.id)])
      .execute();
    expect(
      (await as(admin, `/api/devices/multiple/`, { targets: [doomed.id], action: "delete" })).status,
    ).toBe(200);
    const left = await t.db
      .selectFrom("signal_samples")
      .select("device_id")
      .where("device_id", "in", [doomed.id, kept.id])
      .execute();
    expect(left).toEqual([{ device_id: kept.id }]);
  });
});
