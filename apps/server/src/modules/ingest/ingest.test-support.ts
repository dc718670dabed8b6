import { randomBytes, randomUUID } from "node:crypto";
import { deriveDeviceToken } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { toJsonb } from "../../platform/db/schema";
import { REFUSAL_REASONS } from "../../platform/mqtt/counters";
import type { TestApp } from "../../test/test-app";
import { type DeviceIngest, type DeviceIngestStats, startDeviceIngest } from "./ingest.runtime";
import { STORED_SECONDS_BOUNDS } from "./stored-latency";

// Test helpers for the gateway and ingest: devices with keys, the gateway on a free port, MQTT clients.

/** Device-side figures as a running gateway gives them, every count `base` unless `patch` says. */
export function sampleDeviceIngestStats(patch: Partial<DeviceIngestStats> = {}, base = 0): DeviceIngestStats {
  return {
    mode: "embedded",
    connections: base,
    connectionsAccepted: base,
    accepted: base,
    refused: Object.fromEntries(
      REFUSAL_REASONS.map((reason) => [reason, base]),
    ) as DeviceIngestStats["refused"],
    ingest: {
      stored: base,
      duplicates: base,
      unknownDevice: base,
      batches: base,
      failedBatches: base,
      epochsRestarted: base,
      replannedBatches: base,
      queued: base,
      storedLatency: {
        bounds: STORED_SECONDS_BOUNDS,
        counts: STORED_SECONDS_BOUNDS.map(() => base).concat(base),
        sumSeconds: base,
        count: base * (STORED_SECONDS_BOUNDS.length + 1),
      },
    },
    refusalRecords: { dropped: base, writes: base },
    presence: { writes: base, failed: base },
    ...patch,
  };
}

/** A device a test created, with what it connects with. */
export interface TestDevice {
  id: string;
  ident: string;
  domainId: string;
  key: string | null;
  token: string | null;
}

/** An ident no other test (or run, against a shared Mosquitto) uses. */
export function uniqueIdent(prefix = "T"): string {
  return `${prefix}${randomBytes(6).toString("hex").toUpperCase()}`;
}

/** Inserts a device of the domain; `key: null` makes one without an AES key. */
export async function insertDevice(
  t: Pick<TestApp, "db">,
  domainId: string,
  options: { ident?: string; key?: string | null } = {},
): Promise<TestDevice> {
  const ident = options.ident ?? uniqueIdent();
  const key = options.key === undefined ? randomBytes(32).toString("hex").toUpperCase() : options.key;
  const id = randomUUID();
  await t.db
    .insertInto("devices")
    .values({ id, domain_id: domainId, ident, aes_key: key, tags: toJsonb([]), meta: toJsonb({}) })
    .execute();
  return { id, ident, domainId, key, token: key ? await deriveDeviceToken(ident, key) : null };
}

/**
 * Starts ingest and the gateway for a test app: the embedded broker on a free port unless mqttUrl is
 * given. With an external broker the client id and share group are the test's own, and close() also
 * clears the persistent session, so no test leaves a subscriber behind on a shared broker.
 */
export async function startTestIngest(
  t: TestApp,
  options: {
    mqttUrl?: string;
    clientId?: string;
    sharedSubscription?: boolean;
    /** The shared subscription group; one of the test's own unless given (nodes of one test share it). */
    shareGroup?: string;
    tls?: { port: number; cert: string; key: string };
    flushIntervalMs?: number;
    /** The app's command side (jobs, command statuses) and, when given, zero-touch enrolment. */
    withCommands?: boolean;
    withZeroTouch?: boolean;
  } = {},
): Promise<DeviceIngest> {
  const quiet = { info() {}, warn() {}, error() {} };
  const clientId = options.clientId ?? `cellfleet-test-${randomBytes(4).toString("hex")}`;
  const runtime = await startDeviceIngest({
    db: t.db,
    bus: t.bus,
    now: t.clock.now,
    log: quiet,
    mqttUrl: options.mqttUrl,
    mqttPort: 0,
    host: "127.0.0.1",
    clientId,
    sharedSubscription: options.sharedSubscription,
    shareGroup: options.shareGroup ?? `test${randomBytes(4).toString("hex")}`,
    ingest: { flushIntervalMs: options.flushIntervalMs ?? 20 },
    tls: options.tls,
    ...(options.withCommands
      ? { jobs: t.app.jobs, commandStatuses: t.app.hooks.get("ingest.commandStatuses") }
      : {}),
    ...(options.withZeroTouch ? { zeroTouch: t.app.hooks.get("ingest.zeroTouch") } : {}),
  });
  if (!options.mqttUrl || options.clientId) return runtime;
  const mqttUrl = options.mqttUrl;
  return {
    ...runtime,
    async close() {
      await runtime.close();
      await clearSession(mqttUrl, clientId);
    },
  };
}

/** Ends a persistent session on an external broker by connecting once with clean session. */
export async function clearSession(url: string, clientId: string): Promise<void> {
  const client = await mqtt.connectAsync(url, { clientId, clean: true, reconnectPeriod: 0 });
  await client.endAsync();
}

/** Connects as a device (no reconnects); rejects with the broker's refusal. */
export function connectDevice(url: string, ident: string, password: string | undefined): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    clientId: ident,
    username: ident,
    password,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
}

/** An envelope with this seq and the current time. */
export function envelope(seq: number): { v: 1; seq: number; ts: number } {
  return { v: 1, seq, ts: Date.now() };
}

/** A valid modems collect whose main modem has this CSQ. */
export function modemsReport(seq: number, csq: number) {
  return {
    ...envelope(seq),
    modems: [
      {
        id: "1-1",
        state: 1,
        primary: true,
        mode: "LTE",
        sim: 1,
        operator: "MegaFon",
        ip: "10.0.0.2",
        module: "Quectel EC25-E",
        band: "B3",
        signal: 70,
        imei: "866758041234567",
        iccid: "8970102123456789012",
        imsi: "250021234567890",
        rx: 100,
        tx: 200,
        uptime: 300,
        rsrq: -9.5,
        rssi: -67,
        rsrp: -94,
        sinr: 13.2,
        csq,
      },
    ],
  };
}

/** A valid board collect. */
export function boardReport(seq: number, uptime = 100) {
  return {
    ...envelope(seq),
    model: "RUT955",
    firmware: "RUT9_R_00.07.06.10",
    serial: "1109876543",
    hostname: "RUT955",
    uptime,
    cpu_load: 12.5,
    memory_total: 134217728,
    memory_free: 61865984,
    temperature: 41.2,
  };
}

/** Publishes JSON with QoS 1 and resolves on the PUBACK. */
export async function publishJson(client: MqttClient, topic: string, body: unknown): Promise<void> {
  await client.publishAsync(topic, JSON.stringify(body), { qos: 1 });
}

/** Polls until check answers true; fails after timeoutMs. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 5000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
