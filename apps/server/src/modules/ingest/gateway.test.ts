import {
  collectTopic,
  commandTopic,
  DevicesSocketMessageSchema,
  EventSchema,
  eventTopic,
  helloTopic,
  publisherClientId,
} from "@cellfleet/contract";
import type { MqttClient } from "mqtt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import { CONTACT_GRANULARITY_MS } from "./ingest.plan";
import type { DeviceIngest } from "./ingest.runtime";
import {
  boardReport,
  connectDevice,
  envelope,
  eventually,
  insertDevice,
  modemsReport,
  publishJson,
  startTestIngest,
} from "./ingest.test-support";

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

async function device(domainId?: string) {
  const domain = domainId ?? (await buildDomain(t)).id;
  return insertDevice(t, domain);
}

async function connected(ident: string, token: string | null): Promise<MqttClient> {
  const client = await connectDevice(url, ident, token ?? undefined);
  clients.push(client);
  return client;
}

function refusedCount(reason: keyof ReturnType<DeviceIngest["gateway"]["stats"]>["refused"]): number {
  return runtime.gateway.stats().refused[reason];
}

describe("gateway authentication", () => {
  it("lets a device in with its token", async () => {
    const d = await device();
    const client = await connected(d.ident, d.token);
    expect(client.connected).toBe(true);
  });

  it("refuses a wrong token, an unknown device, a device without key and a username that is not the ident", async () => {
    const d = await device();
    const before = runtime.gateway.stats().refused;
    await expect(connectDevice(url, d.ident, "0".repeat(64))).rejects.toThrow(
      /[Bb]ad username or password|Not authorized/,
    );
    await expect(connectDevice(url, "NOSUCHDEVICE1", "0".repeat(64))).rejects.toThrow();
    const keyless = await insertDevice(t, d.domainId, { key: null });
    await expect(connectDevice(url, keyless.ident, "0".repeat(64))).rejects.toThrow();
    const other = await device();
    await expect(
      (async () => {
        const { default: mqtt } = await import("mqtt");
        return mqtt.connectAsync(url, {
          clientId: d.ident,
          username: other.ident,
          password: d.token ?? "",
          reconnectPeriod: 0,
        });
      })(),
    ).rejects.toThrow();
    const after = runtime.gateway.stats().refused;
    expect(after.bad_token - before.bad_token).toBe(1);
    expect(after.unknown_device - before.unknown_device).toBe(1);
    expect(after.no_key - before.no_key).toBe(1);
    expect(after.bad_username - before.bad_username).toBe(1);
  });
});

describe("gateway ACL", () => {
  it("does not let a device publish as another: the connection closes and nothing is stored for the other", async () => {
    const a = await device();
    const b = await device(a.domainId);
    const client = await connected(a.ident, a.token);
    const before = refusedCount("acl_publish");
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.publish(collectTopic(b.ident, "board"), JSON.stringify(boardReport(1)), { qos: 1 });
    await closed;
    expect(refusedCount("acl_publish") - before).toBe(1);
    const rows = await t.db.selectFrom("device_collects").selectAll().where("device_id", "=", b.id).execute();
    expect(rows).toHaveLength(0);
  });

  it("lets a device subscribe only to its own command topic", async () => {
    const a = await device();
    const b = await device(a.domainId);
    const client = await connected(a.ident, a.token);
    const own = await client.subscribeAsync(commandTopic(a.ident), { qos: 1 });
    expect(own[0]?.qos).toBe(1);
    const before = refusedCount("acl_subscribe");
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.subscribe(commandTopic(b.ident), { qos: 1 });
    await closed;
    expect(refusedCount("acl_subscribe") - before).toBe(1);
  });
});

describe("a device's second connection for publishing, {ident}-p (ADR 030)", () => {
  async function connectAs(clientId: string, username: string, password: string | null) {
    const { default: mqtt } = await import("mqtt");
    const client = await mqtt.connectAsync(url, {
      clientId,
      username,
      password: password ?? "",
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    clients.push(client);
    return client;
  }

  it("is let in beside the main connection with the same token; its reports are the device's; only the main one counts as connected", async () => {
    const d = await device();
    const main = await connected(d.ident, d.token);
    expect(runtime.gateway.isConnected(d.ident)).toBe(true);
    const publisher = await connectAs(publisherClientId(d.ident), publisherClientId(d.ident), d.token);
    // Both stay open: neither took the other's place.
    await publishJson(publisher, collectTopic(d.ident, "board"), boardReport(21));
    expect(main.connected && publisher.connected).toBe(true);
    const row = await t.db
      .selectFrom("device_collects")
      .select("seq")
      .where("device_id", "=", d.id)
      .where("type", "=", "board")
      .executeTakeFirst();
    expect(Number(row?.seq)).toBe(21);
    await main.endAsync();
    expect(runtime.gateway.isConnected(d.ident)).toBe(false);
    expect(publisher.connected).toBe(true);
  });

  it("may publish only under its own ident, and is refused with another token or user name", async () => {
    const a = await device();
    const b = await device(a.domainId);
    const before = runtime.gateway.stats().refused;
    await expect(
      connectAs(publisherClientId(a.ident), publisherClientId(a.ident), b.token),
    ).rejects.toThrow();
    await expect(connectAs(publisherClientId(a.ident), a.ident, a.token)).rejects.toThrow();
    // Only `-p` is read as the ident: another suffix names no device.
    await expect(connectAs(`${a.ident}-q`, `${a.ident}-q`, a.token)).rejects.toThrow();
    const after = runtime.gateway.stats().refused;
    expect(after.bad_token - before.bad_token).toBe(1);
    expect(after.bad_username - before.bad_username).toBe(1);
    expect(after.unknown_device - before.unknown_device).toBe(1);
    const publisher = await connectAs(publisherClientId(a.ident), publisherClientId(a.ident), a.token);
    const closed = new Promise<void>((resolve) => publisher.once("close", () => resolve()));
    publisher.publish(collectTopic(b.ident, "board"), JSON.stringify(boardReport(1)), { qos: 1 });
    await closed;
    const rows = await t.db.selectFrom("device_collects").selectAll().where("device_id", "=", b.id).execute();
    expect(rows).toHaveLength(0);
  });
});

describe("ingest through the embedded broker", () => {
  it("stores hello, collects and events, updates the device, and acknowledges only after commit", async () => {
    const d = await device();
    const client = await connected(d.ident, d.token);
    const hello = {
      ...envelope(10),
      model: "RUTX11",
      firmware: "RUTX_R_00.07.06",
      serial: "S1",
      uptime: 5,
      agent_version: "1.0.0",
      modem_count: 1,
    };
    await publishJson(client, helloTopic(d.ident), hello);
    // The PUBACK came back, so the contact is already committed: no waiting needed.
    let row = await t.db.selectFrom("devices").selectAll().where("id", "=", d.id).executeTakeFirstOrThrow();
    expect(row.model).toBe("RUTX11");
    expect(row.last_contact?.getTime()).toBe(t.clock.now().getTime());

    await publishJson(client, collectTopic(d.ident, "board"), boardReport(11));
    await publishJson(client, collectTopic(d.ident, "modems"), modemsReport(12, 23));
    await publishJson(client, eventTopic(d.ident), {
      ...envelope(13),
      kind: "sim_switched",
      level: "warning",
      message: "SIM 1 → 2",
      details: { from_sim: 1, to_sim: 2 },
    });
    row = await t.db.selectFrom("devices").selectAll().where("id", "=", d.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      model: "RUT955",
      serial: "1109876543",
      signal_csq: 23,
      network_mode: "LTE",
      events_total: 1,
    });
    expect(Number(row.last_seq)).toBe(13);
    const collects = await t.db
      .selectFrom("device_collects")
      .selectAll()
      .where("device_id", "=", d.id)
      .orderBy("type")
      .execute();
    expect(collects.map((c) => [c.type, Number(c.seq)])).toEqual([
      ["board", 11],
      ["modems", 12],
    ]);
    expect(collects[0]?.data).toMatchObject({ hostname: "RUT955", uptime: 100 });
    const events = await t.db.selectFrom("events").selectAll().where("device_id", "=", d.id).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: "sim_switched", level: "warning", domain_id: d.domainId });
  });

  it("keeps in history only what changed", async () => {
    const d = await device();
    const client = await connected(d.ident, d.token);
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(1, 100));
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(2, 160));
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(3, 160));
    const history = await t.db
      .selectFrom("collect_history")
      .selectAll()
      .where("device_id", "=", d.id)
      .orderBy("seq")
      .execute();
    expect(history.map((h) => Number(h.seq))).toEqual([1, 2]);
    expect(history[1]?.changes).toEqual({ uptime: 160 });
    const latest = await t.db
      .selectFrom("device_collects")
      .select(["seq"])
      .where("device_id", "=", d.id)
      .executeTakeFirstOrThrow();
    expect(Number(latest.seq)).toBe(3);
  });

  it("acknowledges a repeat but applies it once", async () => {
    const d = await device();
    const client = await connected(d.ident, d.token);
    const event = {
      ...envelope(7),
      kind: "gpio_value_change",
      level: "info",
      message: "pin 1 → 0",
      details: {},
    };
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(5, 100));
    await publishJson(client, eventTopic(d.ident), event);
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(5, 100));
    await publishJson(client, eventTopic(d.ident), event);
    // An older report that was never stored goes to history, not to the latest state.
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(4, 90));
    const history = await t.db
      .selectFrom("collect_history")
      .selectAll()
      .where("device_id", "=", d.id)
      .orderBy("seq")
      .execute();
    expect(history.map((h) => Number(h.seq))).toEqual([4, 5]);
    const latest = await t.db
      .selectFrom("device_collects")
      .selectAll()
      .where("device_id", "=", d.id)
      .executeTakeFirstOrThrow();
    expect(Number(latest.seq)).toBe(5);
    expect(await t.db.selectFrom("events").selectAll().where("device_id", "=", d.id).execute()).toHaveLength(
      1,
    );
    const row = await t.db
      .selectFrom("devices")
      .select(["events_total"])
      .where("id", "=", d.id)
      .executeTakeFirstOrThrow();
    expect(row.events_total).toBe(1);
    expect(runtime.ingest.stats().duplicates).toBeGreaterThanOrEqual(1);
    // Every report a batch committed, stored or a duplicate, was timed into the latency histogram.
    const { stored, duplicates, unknownDevice, storedLatency } = runtime.ingest.stats();
    expect(storedLatency.count).toBe(stored + duplicates + unknownDevice);
    expect(storedLatency.counts.reduce((sum, count) => sum + count, 0)).toBe(storedLatency.count);
    expect(storedLatency.sumSeconds).toBeGreaterThan(0);
  });

  it("pushes devices, collects and alerts to the device's domain only", async () => {
    const mine = await device();
    const other = await buildDomain(t);
    const seen: { mine: unknown[]; other: unknown[] } = { mine: [], other: [] };
    const offMine = t.bus.subscribe(domainTopic(mine.domainId), (m) => seen.mine.push(m));
    const offOther = t.bus.subscribe(domainTopic(other.id), (m) => seen.other.push(m));
    try {
      const client = await connected(mine.ident, mine.token);
      await publishJson(client, collectTopic(mine.ident, "modems"), modemsReport(1, 9));
      await publishJson(client, eventTopic(mine.ident), {
        ...envelope(2),
        kind: "tunnel_status",
        level: "error",
        message: "down",
        details: {},
      });
      // The two reports may be written in one batch or two (a router's lane writes what queued
      // while its last batch was written at once), so wait for each kind rather than a count.
      const types = () => seen.mine.map((m) => (m as { type: string }).type);
      // The router's connection is pushed too (ADR 032), before or after the reports' push: the
      // push of the report is the one that says online.
      type DevicesPush = { type: string; action: string; content: Array<Record<string, unknown>> };
      const reportPush = () =>
        (seen.mine as DevicesPush[]).find(
          (m) => m.type === "devices" && m.content.some((row) => row.status === "online"),
        );
      await eventually(
        () => ["collects", "alerts"].every((type) => types().includes(type)) && reportPush() !== undefined,
        "devices, collects and alerts",
      );
      expect(types()).toEqual(expect.arrayContaining(["devices", "collects", "alerts"]));
      const devices = reportPush() as DevicesPush;
      expect(devices.action).toBe("update");
      expect(devices.content[0]).toMatchObject({ _id: mine.id, ident: mine.ident, status: "online" });
      const collects = seen.mine.find((m) => (m as { type: string }).type === "collects") as {
        content: Array<Record<string, unknown>>;
      };
      expect(collects.content[0]).toMatchObject({ device_id: mine.id, type: "modems" });
      // The dashboard takes these as the contract says, unchecked (ADR 026): the devices and the
      // events the socket carries are the contract's.
      expect(() => DevicesSocketMessageSchema.parse(devices)).not.toThrow();
      const alerts = seen.mine.find((m) => (m as { type: string }).type === "alerts") as {
        content: unknown[];
      };
      expect(alerts.content.length).toBeGreaterThan(0);
      for (const event of alerts.content) expect(() => EventSchema.parse(event)).not.toThrow();
      expect(seen.other).toHaveLength(0);
    } finally {
      offMine();
      offOther();
    }
  });
});

describe("contact time", () => {
  it("rewrites an unchanged device's last_contact only once it is CONTACT_GRANULARITY_MS old", async () => {
    const d = await device();
    const client = await connected(d.ident, d.token);
    const lastContact = async () =>
      (
        await t.db
          .selectFrom("devices")
          .select("last_contact")
          .where("id", "=", d.id)
          .executeTakeFirstOrThrow()
      ).last_contact?.getTime();

    await publishJson(client, collectTopic(d.ident, "board"), boardReport(1));
    const first = t.clock.now().getTime();
    expect(await lastContact()).toBe(first);

    t.clock.advance(CONTACT_GRANULARITY_MS - 1000);
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(2));
    expect(await lastContact()).toBe(first);

    t.clock.advance(2000);
    await publishJson(client, collectTopic(d.ident, "board"), boardReport(3));
    expect(await lastContact()).toBe(t.clock.now().getTime());
  });
});
