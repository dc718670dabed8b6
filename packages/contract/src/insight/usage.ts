// Data usage per SIM (issue 18): modem counters turned into bytes per SIM card, keyed by its ICCID
// (so a SIM moved to another slot or router keeps its history), and the billing period of a plan.

/**
 * Bytes moved between two readings of a counter. Counters only grow while the data connection lasts;
 * one that went down was reset (a reboot, a new connection), and then everything it shows now was
 * moved since the reset.
 */
export function counterDelta(previous: number, next: number): number {
  return next >= previous ? next - previous : next;
}

/** What usage needs of a modem report. */
export interface ModemCounters {
  id: string;
  iccid: string | null;
  sim: number;
  rx: number;
  tx: number;
}

/** Bytes one SIM moved between two reports of its router. */
export interface SimUsageDelta {
  iccid: string;
  modem: string;
  sim: number;
  rx: number;
  tx: number;
}

/**
 * The usage between two modems reports of one router, per SIM. Without an earlier report nothing is
 * counted (what the counters held before is not known). A modem absent from the earlier report
 * counts from its start. Bytes go to the SIM in the modem now: after a switch the counters belong to
 * the new data connection. A modem without a SIM counts nothing.
 */
export function simUsageBetween(
  previous: readonly ModemCounters[] | null,
  next: readonly ModemCounters[],
): SimUsageDelta[] {
  if (previous === null) return [];
  const before = new Map(previous.map((modem) => [modem.id, modem]));
  const out: SimUsageDelta[] = [];
  for (const modem of next) {
    if (!modem.iccid) continue;
    const earlier = before.get(modem.id);
    const rx = earlier ? counterDelta(earlier.rx, modem.rx) : modem.rx;
    const tx = earlier ? counterDelta(earlier.tx, modem.tx) : modem.tx;
    if (rx > 0 || tx > 0) out.push({ iccid: modem.iccid, modem: modem.id, sim: modem.sim, rx, tx });
  }
  return out;
}

/** Plan thresholds that raise an event when the period's usage crosses them, percent of the plan. */
export const DATA_PLAN_THRESHOLDS = [80, 100] as const;

/** The highest threshold a usage has reached (0 below the first). */
export function reachedThreshold(usedBytes: number, planBytes: number): number {
  if (planBytes <= 0) return 0;
  const percent = (usedBytes / planBytes) * 100;
  let reached = 0;
  for (const threshold of DATA_PLAN_THRESHOLDS) if (percent >= threshold) reached = threshold;
  return reached;
}

/** A day as `YYYY-MM-DD` (UTC). */
export type IsoDay = string;

const DAY_MS = 86_400_000;

/** The UTC day of a moment. */
export function isoDay(timeMs: number): IsoDay {
  return new Date(timeMs).toISOString().slice(0, 10);
}

function utcDate(year: number, month: number, day: number): number {
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(day, last));
}

/**
 * The billing period a day falls in, for a plan that resets on `resetDay` (1-31; in a shorter month,
 * its last day): from that day of this month, or of the month before if it is not reached yet, up
 * to (not including) the next reset. Days are UTC.
 */
export function billingPeriod(timeMs: number, resetDay: number): { start: IsoDay; end: IsoDay } {
  const now = new Date(timeMs);
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  const today = Date.UTC(year, month, now.getUTCDate());
  const thisReset = utcDate(year, month, resetDay);
  const start = today >= thisReset ? thisReset : utcDate(year, month - 1, resetDay);
  const startDate = new Date(start);
  const end = utcDate(startDate.getUTCFullYear(), startDate.getUTCMonth() + 1, resetDay);
  return { start: isoDay(start), end: isoDay(end) };
}

/** The days from `start` up to (not including) `end`, as `YYYY-MM-DD`. */
export function daysBetween(start: IsoDay, end: IsoDay): IsoDay[] {
  const out: IsoDay[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t < Date.parse(`${end}T00:00:00Z`); t += DAY_MS) {
    out.push(isoDay(t));
  }
  return out;
}
