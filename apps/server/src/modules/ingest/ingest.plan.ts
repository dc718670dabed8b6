import type { CommandStatusMessage, DeviceMessageParseResult } from "@cellfleet/contract";
import { sameJson } from "../../platform/json";
import type {
  CollectUpsert,
  DeviceTouch,
  EventInsert,
  HistoryInsert,
  IngestDevice,
  StoredCollect,
} from "./ingest.repo";
import { emptyInsightPlan, type InsightPlan, planContact, planModemsReport } from "./insight.plan";

/**
 * last_contact is rewritten at most this often per device when nothing else about it changes: status
 * counts in minutes, so a device reporting every second is not rewritten every second.
 */
export const CONTACT_GRANULARITY_MS = 5000;

/** A report that passed parseDeviceMessage. */
export type ParsedReport = Extract<DeviceMessageParseResult, { ok: true }>;

/** Everything one batch writes, worked out before the writes so the transaction stays short. */
export interface BatchPlan {
  collects: CollectUpsert[];
  history: HistoryInsert[];
  events: EventInsert[];
  touches: DeviceTouch[];
  /** A device whose last_contact is older than this gets the batch's time even when nothing else changed. */
  contactStaleBefore: Date;
  /** Reports whose device no longer exists (deleted after it connected): acknowledged, not stored. */
  unknownDevice: number;
  /**
   * Repeats within the batch (a collect at the stored seq, an event twice): acknowledged, not
   * applied twice. Events already in the database are found at insert (ingest.service.ts).
   */
  duplicates: number;
  /** Device time (`ts`) of each upserted collect, by device id and type, for the realtime push. */
  collectTimes: Map<string, number>;
  /** Radio samples, SIM usage, modem changes and outages (insight.plan.ts). */
  insight: InsightPlan;
  /** Devices that said hello in the batch (connected), for the `device.reported` outbox event. */
  connected: string[];
  /** Command statuses, in seq order, for the actions feature's hook (applied in the batch's transaction). */
  commandStatuses: CommandStatusReport[];
}

/** A router's status of a command, resolved to its device. */
export interface CommandStatusReport {
  domain_id: string;
  device_id: string;
  message: CommandStatusMessage;
}

/** The report without its envelope (`v`, `seq`, `ts`), which changes every time and says nothing of state. */
export function collectData(message: {
  v: number;
  seq: number;
  ts: number;
  epoch?: number;
}): Record<string, unknown> {
  const { v: _v, seq: _seq, ts: _ts, epoch: _epoch, ...data } = message;
  return data;
}

/**
 * What changed between two snapshots, by top-level field: the new value of each changed field, and
 * null for a removed one. Lists (modems, routes…) are compared whole. Null when nothing changed.
 */
export function diffCollect(
  previous: unknown,
  next: Record<string, unknown>,
): Record<string, unknown> | null {
  if (previous === null || typeof previous !== "object" || Array.isArray(previous)) return next;
  const before = previous as Record<string, unknown>;
  const changes: Record<string, unknown> = {};
  let changed = false;
  for (const key of Object.keys(next)) {
    const value = next[key];
    if (!(key in before) || !sameJson(before[key], value)) {
      changes[key] = value;
      changed = true;
    }
  }
  for (const key of Object.keys(before)) {
    if (!(key in next)) {
      changes[key] = null;
      changed = true;
    }
  }
  return changed ? changes : null;
}

function emptyTouch(id: string): DeviceTouch {
  return {
    id,
    seq: 0,
    model: null,
    firmware: null,
    serial: null,
    has_modems: false,
    signal_csq: null,
    network_mode: null,
    wan_up: null,
    events_added: 0,
    command_types: null,
    latitude: null,
    longitude: null,
  };
}

/**
 * Works out the writes of a batch. Collects of one device and type are applied in seq order: a
 * newer seq replaces the latest state and adds what changed to history; an older one that is not
 * stored yet goes to history only (docs/device-protocol.md 5.3); the stored seq itself is a repeat.
 */
export function planBatch(
  reports: readonly ParsedReport[],
  devices: readonly IngestDevice[],
  stored: readonly StoredCollect[],
  now: Date,
): BatchPlan {
  const byIdent = new Map(devices.map((device) => [device.ident, device]));
  const latest = new Map(stored.map((row) => [`${row.device_id}\u0000${row.type}`, row]));
  const plan: BatchPlan = {
    collects: [],
    history: [],
    events: [],
    touches: [],
    contactStaleBefore: new Date(now.getTime() - CONTACT_GRANULARITY_MS),
    unknownDevice: 0,
    duplicates: 0,
    collectTimes: new Map(),
    insight: emptyInsightPlan(),
    connected: [],
    commandStatuses: [],
  };
  const touches = new Map<string, DeviceTouch>();
  const upserts = new Map<string, CollectUpsert>();
  const seen = new Set<string>();
  const connected = new Set<string>();

  const ordered = [...reports].sort((a, b) => a.message.seq - b.message.seq);
  for (const report of ordered) {
    const device = byIdent.get(report.ident);
    if (!device) {
      plan.unknownDevice++;
      continue;
    }
    let touch = touches.get(device.id);
    if (!touch) {
      touch = emptyTouch(device.id);
      touches.set(device.id, touch);
      planContact(plan.insight, device, now);
    }
    touch.seq = Math.max(touch.seq, report.message.seq);

    if (report.kind === "hello") {
      if (!connected.has(device.id)) {
        connected.add(device.id);
        plan.connected.push(device.id);
      }
      touch.model = report.message.model;
      touch.firmware = report.message.firmware;
      touch.serial = report.message.serial;
      touch.command_types = report.message.command_types?.join(",") ?? null;
    } else if (report.kind === "event") {
      const key = `${device.id}\u0000${report.message.seq}`;
      if (seen.has(key)) {
        plan.duplicates++;
        continue;
      }
      seen.add(key);
      plan.events.push({
        domain_id: device.domain_id,
        device_id: device.id,
        seq: report.message.seq,
        kind: report.message.kind,
        level: report.message.level,
        message: report.message.message,
        details: report.message.details,
        device_time: new Date(report.message.ts),
        create_time: now,
      });
    } else if (report.kind === "collect") {
      const key = `${device.id}\u0000${report.collectType}`;
      const data = collectData(report.message);
      const previous = latest.get(key);
      const seq = report.message.seq;
      if (previous && seq <= previous.seq) {
        const historyKey = `${key}\u0000${seq}`;
        if (seq === previous.seq || seen.has(historyKey)) {
          plan.duplicates++;
          continue;
        }
        // Late and out of order: history keeps it (the unique index drops it if it was stored before).
        seen.add(historyKey);
        plan.history.push({
          domain_id: device.domain_id,
          device_id: device.id,
          type: report.collectType,
          seq,
          changes: data,
          create_time: now,
        });
        continue;
      }
      const changes = diffCollect(previous?.data, data);
      if (changes) {
        plan.history.push({
          domain_id: device.domain_id,
          device_id: device.id,
          type: report.collectType,
          seq,
          changes,
          create_time: now,
        });
      }
      latest.set(key, { device_id: device.id, type: report.collectType, seq, data });
      plan.collectTimes.set(key, report.message.ts);
      upserts.set(key, {
        device_id: device.id,
        domain_id: device.domain_id,
        type: report.collectType,
        seq,
        data,
        create_time: now,
      });
      if (report.collectType === "board") {
        const board = report.message as { model: string; firmware: string; serial: string };
        touch.model = board.model;
        touch.firmware = board.firmware;
        touch.serial = board.serial;
      } else if (report.collectType === "modems") {
        const modems = (
          report.message as {
            modems: Array<{ primary: boolean; state: number; csq: number | null; mode: string }>;
          }
        ).modems;
        planModemsReport(plan.insight, device, previous?.data, data, report.message.ts, now);
        const main = modems.find((modem) => modem.primary) ?? modems[0];
        touch.has_modems = true;
        touch.signal_csq = main?.csq ?? null;
        touch.network_mode = main?.mode ?? null;
        touch.wan_up = modems.length > 0 ? modems.some((modem) => modem.state === 1) : null;
      } else if (report.collectType === "gps") {
        const fix = report.message as { lat: number; lng: number };
        touch.latitude = fix.lat;
        touch.longitude = fix.lng;
      }
    }
    if (report.kind === "command_status") {
      plan.commandStatuses.push({
        domain_id: device.domain_id,
        device_id: device.id,
        message: report.message,
      });
    }
  }
  plan.collects = [...upserts.values()];
  plan.touches = [...touches.values()];
  return plan;
}
