import {
  CSQ_UNKNOWN,
  isoDay,
  type ModemReport,
  modemChangesBetween,
  OUTAGE_MIN_MS,
  simUsageBetween,
} from "@cellfleet/contract";
import type {
  ModemChangeInsert,
  OutageInsert,
  RollupDirtyInsert,
  SignalSampleInsert,
  SimUsageUpsert,
} from "./insight.repo";

// What a batch adds to device insight (issue 18, ADR 013): radio samples, usage per SIM, modem
// changes, outages and late hours to roll up again. Worked out in memory before the transaction, as
// the rest of the batch plan is; the few statements that write it are in insight.repo.ts.

/** A sample whose hour ended this long ago may have been rolled up already: its hour is marked dirty. */
export const ROLLUP_GRACE_MS = 5 * 60_000;
const HOUR_MS = 3_600_000;

/** Insight rows of one batch. */
export interface InsightPlan {
  samples: SignalSampleInsert[];
  /** By domain, ICCID, day and router: one row each however many reports the batch held. */
  usage: Map<string, SimUsageUpsert>;
  changes: ModemChangeInsert[];
  outages: OutageInsert[];
  dirty: Map<string, RollupDirtyInsert>;
}

/** An empty plan. */
export function emptyInsightPlan(): InsightPlan {
  return { samples: [], usage: new Map(), changes: [], outages: [], dirty: new Map() };
}

/**
 * The time a report's measurements are drawn at: the router's own, unless it lies in the future
 * (a clock running ahead), when the server's time is taken.
 */
export function sampleTime(deviceTs: number, now: Date): Date {
  return deviceTs > now.getTime() ? now : new Date(deviceTs);
}

/** The modems of a stored or reported modems snapshot, or null when it holds none readable. */
function modemsOf(data: unknown): ModemReport[] | null {
  const modems = (data as { modems?: unknown } | null | undefined)?.modems;
  return Array.isArray(modems) ? (modems as ModemReport[]) : null;
}

/**
 * Adds a newer modems report to the plan: a sample per modem, the bytes each SIM moved since the
 * previous report (by ICCID), and what changed on each modem. `previous` is the stored snapshot this
 * report replaces (undefined for the first one).
 */
export function planModemsReport(
  plan: InsightPlan,
  device: { id: string; domain_id: string },
  previous: unknown,
  data: unknown,
  deviceTs: number,
  now: Date,
): void {
  const modems = modemsOf(data);
  if (!modems) return;
  const time = sampleTime(deviceTs, now);
  for (const modem of modems) {
    plan.samples.push({
      device_id: device.id,
      modem: modem.id,
      time,
      rsrp: modem.rsrp,
      rsrq: modem.rsrq,
      sinr: modem.sinr,
      rssi: modem.rssi,
      csq: modem.csq === CSQ_UNKNOWN ? null : modem.csq,
    });
  }
  // Its hour was perhaps rolled up already (a queue sent after an outage): roll it up again.
  if (time.getTime() < Math.floor((now.getTime() - ROLLUP_GRACE_MS) / HOUR_MS) * HOUR_MS) {
    const hour = new Date(Math.floor(time.getTime() / HOUR_MS) * HOUR_MS);
    plan.dirty.set(`${device.id}\u0000${hour.getTime()}`, { device_id: device.id, hour });
  }
  const before = previous === undefined ? null : modemsOf(previous);
  const day = isoDay(time.getTime());
  for (const delta of simUsageBetween(before, modems)) {
    const key = `${device.domain_id}\u0000${delta.iccid}\u0000${day}\u0000${device.id}`;
    const row = plan.usage.get(key);
    if (row) {
      row.rx += delta.rx;
      row.tx += delta.tx;
      row.modem = delta.modem;
      row.slot = delta.sim;
      if (time > row.seen) row.seen = time;
    } else {
      plan.usage.set(key, {
        domain_id: device.domain_id,
        iccid: delta.iccid,
        day,
        device_id: device.id,
        modem: delta.modem,
        slot: delta.sim,
        rx: delta.rx,
        tx: delta.tx,
        seen: time,
      });
    }
  }
  for (const change of modemChangesBetween(before, modems)) {
    plan.changes.push({ device_id: device.id, time, modem: change.modem, changes: change.changes });
  }
}

/**
 * An outage when the device's previous contact is more than OUTAGE_MIN_MS before this batch: from
 * that contact to now. Read under the batch's row lock, so two batches never record one twice.
 */
export function planContact(plan: InsightPlan, device: { id: string; last_contact: Date | null }, now: Date) {
  if (device.last_contact && now.getTime() - device.last_contact.getTime() > OUTAGE_MIN_MS) {
    plan.outages.push({ device_id: device.id, started: device.last_contact, ended: now });
  }
}
