import { signalQualityOf, type UptimeFigures } from "@cellfleet/contract";

// The arithmetic of an uptime report (ADR 044), pure: intervals in ms since the epoch, clipped to
// what the report observes. The service reads the history; the integration test checks the figures
// against ones worked out by hand.

/** A stretch of time [from, to); either end may be infinite before clipping. */
export interface Interval {
  from: number;
  to: number;
}

/** What history says of one router over the month. */
export interface RouterHistory {
  /** What the report observes of the router: null when it never reported (it is pending, not down). */
  observed: Interval | null;
  /** Stored outages and the ongoing silence, as stored (not clipped). */
  outages: readonly Interval[];
  /** Stretches with a modem on a SIM slot other than 1. */
  backup: readonly Interval[];
  csq: number | null;
  sims: ReadonlyArray<{ iccid: string; rx: number; tx: number }>;
  firmwareChanges: number;
}

/** The parts of the intervals inside `within`, sorted and merged where they touch or overlap. */
export function clipAndMerge(intervals: readonly Interval[], within: Interval): Interval[] {
  const clipped = intervals
    .map((i) => ({ from: Math.max(i.from, within.from), to: Math.min(i.to, within.to) }))
    .filter((i) => i.to > i.from)
    .sort((a, b) => a.from - b.from);
  const merged: Interval[] = [];
  for (const i of clipped) {
    const last = merged[merged.length - 1];
    if (last && i.from <= last.to) last.to = Math.max(last.to, i.to);
    else merged.push({ ...i });
  }
  return merged;
}

const lengthOf = (intervals: readonly Interval[]) => intervals.reduce((sum, i) => sum + (i.to - i.from), 0);

/** Connected time in percent with one decimal; null when nothing was observed. */
export function percentOf(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

/** Down time of a router inside `window` (a day, or the whole observed span). */
export function downWithin(history: RouterHistory, window: Interval): { observed: number; down: number } {
  if (!history.observed) return { observed: 0, down: 0 };
  const within = {
    from: Math.max(window.from, history.observed.from),
    to: Math.min(window.to, history.observed.to),
  };
  if (within.to <= within.from) return { observed: 0, down: 0 };
  return { observed: within.to - within.from, down: lengthOf(clipAndMerge(history.outages, within)) };
}

/** One router's figures over its observed span. */
export function routerFigures(history: RouterHistory): UptimeFigures {
  const observed = history.observed;
  const outages = observed
    ? history.outages
        .map((o) => Math.min(o.to, observed.to) - Math.max(o.from, observed.from))
        .filter((ms) => ms > 0)
    : [];
  const observedMs = observed ? Math.max(0, observed.to - observed.from) : 0;
  const downMs = observed ? lengthOf(clipAndMerge(history.outages, observed)) : 0;
  return {
    observed_ms: observedMs,
    connected_ms: observedMs - downMs,
    connected_percent: percentOf(observedMs - downMs, observedMs),
    outages: { count: outages.length, longest_ms: Math.max(0, ...outages), total_ms: downMs },
    backup_sim_ms: observed ? lengthOf(clipAndMerge(history.backup, observed)) : 0,
    signal: { csq: roundCsq(history.csq), quality: signalQualityOf("csq", history.csq) },
    sims: [...history.sims].sort((a, b) => a.iccid.localeCompare(b.iccid)),
    firmware_changes: history.firmwareChanges,
  };
}

const roundCsq = (csq: number | null) => (csq === null ? null : Math.round(csq * 10) / 10);

/**
 * The figures of many routers together: times and counts add up, the longest outage is the longest
 * of any, the signal is the mean of the routers' means (each router counts once), SIMs add up by ICCID.
 */
export function totalFigures(rows: readonly UptimeFigures[]): UptimeFigures {
  const sum = (pick: (row: UptimeFigures) => number) => rows.reduce((total, row) => total + pick(row), 0);
  const observed = sum((row) => row.observed_ms);
  const connected = sum((row) => row.connected_ms);
  const means = rows.map((row) => row.signal.csq).filter((csq): csq is number => csq !== null);
  const csq = means.length > 0 ? means.reduce((a, b) => a + b, 0) / means.length : null;
  const sims = new Map<string, { iccid: string; rx: number; tx: number }>();
  for (const sim of rows.flatMap((row) => row.sims)) {
    const seen = sims.get(sim.iccid) ?? { iccid: sim.iccid, rx: 0, tx: 0 };
    sims.set(sim.iccid, { iccid: sim.iccid, rx: seen.rx + sim.rx, tx: seen.tx + sim.tx });
  }
  return {
    observed_ms: observed,
    connected_ms: connected,
    connected_percent: percentOf(connected, observed),
    outages: {
      count: sum((row) => row.outages.count),
      longest_ms: Math.max(0, ...rows.map((row) => row.outages.longest_ms)),
      total_ms: sum((row) => row.outages.total_ms),
    },
    backup_sim_ms: sum((row) => row.backup_sim_ms),
    signal: { csq: roundCsq(csq), quality: signalQualityOf("csq", csq) },
    sims: [...sims.values()].sort((a, b) => a.iccid.localeCompare(b.iccid)),
    firmware_changes: sum((row) => row.firmware_changes),
  };
}

/**
 * Stretches on a backup SIM from a modem's slot changes (oldest first) and its slot now: before the
 * first change the modem was on that change's `from`; with no change, on its slot now all along.
 */
export function backupStretches(
  changes: ReadonlyArray<{ time: number; from: number; to: number }>,
  slotNow: number | null,
): Interval[] {
  const out: Interval[] = [];
  let slot = changes[0]?.from ?? slotNow ?? 1;
  let since = Number.NEGATIVE_INFINITY;
  for (const change of changes) {
    if (slot > 1) out.push({ from: since, to: change.time });
    slot = change.to;
    since = change.time;
  }
  if (slot > 1) out.push({ from: since, to: Number.POSITIVE_INFINITY });
  return out;
}
