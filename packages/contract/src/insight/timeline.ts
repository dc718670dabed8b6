import type { StatusThreshold } from "../status";

// Outages and the status timeline of a device over a time range (issue 18).

/**
 * A stretch without any message from the router longer than this is an outage: drawn on the charts
 * and in the timeline. Five minutes is the protocol's longest keep-alive (300 s) and five times the
 * recommended report interval (docs/device-protocol.md 2 and 8), so a router that keeps to the
 * protocol never shows one while it is connected.
 */
export const OUTAGE_MIN_MS = 5 * 60_000;

/** A period without contact: from the last message before it to the first after it (or now). */
export interface Outage {
  from: number;
  to: number;
}

/**
 * States of the timeline. `online`: the router was in contact; `offline`: it had gone silent for
 * longer than {@link OUTAGE_MIN_MS} but its status was still online by the domain's thresholds;
 * `warning` and `critical`: what spec section 4 makes of the silence as it grows longer.
 */
export const TIMELINE_STATES = ["online", "offline", "warning", "critical"] as const;
/** One of {@link TIMELINE_STATES}. */
export type TimelineState = (typeof TIMELINE_STATES)[number];

/** One stretch of the timeline. */
export interface TimelineSegment {
  from: number;
  to: number;
  status: TimelineState;
}

const MINUTE_MS = 60_000;

function thresholdMs(thresholds: readonly StatusThreshold[], name: StatusThreshold["name"]): number {
  return (thresholds.find((entry) => entry.name === name)?.minutes ?? 0) * MINUTE_MS;
}

/**
 * The status timeline over [from, to): online wherever there is no outage; inside an outage that
 * began at `s` (the last contact), the status spec section 4 gives at each moment: offline while the
 * silence is within the online threshold, warning within the warning threshold, critical beyond.
 * `since` is the first contact known (null: none), before which nothing is drawn. Adjacent segments
 * of the same state are merged; empty ones are dropped.
 */
export function buildStatusTimeline(input: {
  from: number;
  to: number;
  since: number | null;
  outages: readonly Outage[];
  thresholds: readonly StatusThreshold[];
}): TimelineSegment[] {
  if (input.since === null) return [];
  const start = Math.max(input.from, input.since);
  if (start >= input.to) return [];
  const online = thresholdMs(input.thresholds, "online");
  const warning = Math.max(online, thresholdMs(input.thresholds, "warning"));
  const raw: TimelineSegment[] = [];
  const push = (from: number, to: number, status: TimelineState) => {
    const a = Math.max(from, start);
    const b = Math.min(to, input.to);
    if (b > a) raw.push({ from: a, to: b, status });
  };
  let cursor = start;
  const outages = [...input.outages].sort((a, b) => a.from - b.from);
  for (const outage of outages) {
    if (outage.to <= cursor) continue;
    const begin = Math.max(outage.from, cursor);
    push(cursor, begin, "online");
    push(begin, Math.min(outage.to, outage.from + online), "offline");
    push(Math.max(begin, outage.from + online), Math.min(outage.to, outage.from + warning), "warning");
    push(Math.max(begin, outage.from + warning), outage.to, "critical");
    cursor = Math.max(cursor, outage.to);
  }
  push(cursor, input.to, "online");
  const merged: TimelineSegment[] = [];
  for (const segment of raw) {
    const last = merged[merged.length - 1];
    if (last && last.status === segment.status && last.to === segment.from) last.to = segment.to;
    else merged.push({ ...segment });
  }
  return merged;
}
