import type { SignalQuality } from "../lists";

// Signal history (issue 18): the radio metrics charted per modem, the quality bands of spec section 4
// for each of them, and how a time range is cut into buckets before the browser draws it.

/** The radio measurements a modem reports and the console charts, in the order the charts show them. */
export const SIGNAL_METRICS = ["rsrp", "rsrq", "sinr", "rssi", "csq"] as const;
/** One of {@link SIGNAL_METRICS}. */
export type SignalMetric = (typeof SIGNAL_METRICS)[number];

/** The lowest value of Mid Cell, Normal and Excellent for one metric; anything lower is Cell Edge. */
export interface SignalBands {
  midCell: number;
  normal: number;
  excellent: number;
}

/**
 * The quality bands of spec section 4 for each metric. Our thresholds, after the usual field reading
 * of LTE measurements (the cellular router makers' signal tables): RSRP −100/−90/−80 dBm, RSRQ
 * −20/−15/−10 dB, SINR 0/13/20 dB, RSSI −85/−75/−65 dBm; CSQ 10/15/20 as `signalQualityFromCsq`.
 */
export const SIGNAL_BANDS: Readonly<Record<SignalMetric, SignalBands>> = {
  rsrp: { midCell: -100, normal: -90, excellent: -80 },
  rsrq: { midCell: -20, normal: -15, excellent: -10 },
  sinr: { midCell: 0, normal: 13, excellent: 20 },
  rssi: { midCell: -85, normal: -75, excellent: -65 },
  csq: { midCell: 10, normal: 15, excellent: 20 },
};

/** Units of the metrics, as the charts' axes say them. */
export const SIGNAL_UNITS: Readonly<Record<SignalMetric, string>> = {
  rsrp: "dBm",
  rsrq: "dB",
  sinr: "dB",
  rssi: "dBm",
  csq: "",
};

/** CSQ's "not known" value (AT+CSQ 99): stored and charted as no value. */
export const CSQ_UNKNOWN = 99;

/**
 * The quality band a value falls in (spec section 4). A missing or non-finite value is unknown, and
 * so is a CSQ outside 0..31 (99 means not known).
 */
export function signalQualityOf(metric: SignalMetric, value: number | null | undefined): SignalQuality {
  if (value === null || value === undefined || !Number.isFinite(value)) return "unknown";
  if (metric === "csq" && (value < 0 || value > 31)) return "unknown";
  const bands = SIGNAL_BANDS[metric];
  if (value >= bands.excellent) return "excellent";
  if (value >= bands.normal) return "normal";
  if (value >= bands.midCell) return "midCell";
  return "cellEdge";
}

// --- Ranges and buckets ---

/** The ranges the device page offers. */
export const HISTORY_RANGES = ["1h", "24h", "7d", "30d"] as const;
/** One of {@link HISTORY_RANGES}. */
export type HistoryRange = (typeof HISTORY_RANGES)[number];

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Length of each range in ms. */
export const HISTORY_RANGE_MS: Readonly<Record<HistoryRange, number>> = {
  "1h": HOUR_MS,
  "24h": DAY_MS,
  "7d": 7 * DAY_MS,
  "30d": 30 * DAY_MS,
};

/** Most buckets a range is cut into: a chart a few hundred pixels wide needs no more points. */
export const HISTORY_MAX_BUCKETS = 360;

/** Bucket lengths the server aggregates by, shortest first; each divides a day, so buckets align. */
export const HISTORY_BUCKETS_MS = [
  10_000,
  30_000,
  MINUTE_MS,
  2 * MINUTE_MS,
  5 * MINUTE_MS,
  10 * MINUTE_MS,
  15 * MINUTE_MS,
  30 * MINUTE_MS,
  HOUR_MS,
  2 * HOUR_MS,
  3 * HOUR_MS,
  6 * HOUR_MS,
  12 * HOUR_MS,
  DAY_MS,
] as const;

/** The length of one hourly rollup row: buckets at least this long are read from rollups. */
export const ROLLUP_BUCKET_MS = HOUR_MS;

/**
 * The bucket a range is aggregated by: the shortest of {@link HISTORY_BUCKETS_MS} that cuts the
 * range into at most {@link HISTORY_MAX_BUCKETS}. 1 h → 10 s, 24 h → 5 min, 7 d → 30 min, 30 d → 2 h.
 */
export function historyBucketMs(rangeMs: number): number {
  for (const bucket of HISTORY_BUCKETS_MS) {
    if (Math.ceil(rangeMs / bucket) <= HISTORY_MAX_BUCKETS) return bucket;
  }
  return HISTORY_BUCKETS_MS[HISTORY_BUCKETS_MS.length - 1];
}

/** The start of the bucket a moment falls in; buckets are aligned to the epoch, so they do not move. */
export function bucketStart(timeMs: number, bucketMs: number): number {
  return Math.floor(timeMs / bucketMs) * bucketMs;
}

/** One bucket's summary of a metric: its lowest, highest and mean value, or nulls when none was reported. */
export interface BucketSummary {
  min: number | null;
  max: number | null;
  mean: number | null;
}

/**
 * Summarises samples by bucket (min, max, mean), skipping missing values: the same arithmetic the
 * server's SQL does, for the unit tests and for anyone checking an answer by hand.
 */
export function summariseByBucket(
  samples: readonly { time: number; value: number | null }[],
  bucketMs: number,
): Map<number, BucketSummary> {
  const sums = new Map<number, { min: number; max: number; sum: number; count: number }>();
  for (const sample of samples) {
    if (sample.value === null || !Number.isFinite(sample.value)) continue;
    const start = bucketStart(sample.time, bucketMs);
    const entry = sums.get(start);
    if (!entry) sums.set(start, { min: sample.value, max: sample.value, sum: sample.value, count: 1 });
    else {
      entry.min = Math.min(entry.min, sample.value);
      entry.max = Math.max(entry.max, sample.value);
      entry.sum += sample.value;
      entry.count += 1;
    }
  }
  const out = new Map<number, BucketSummary>();
  for (const [start, entry] of [...sums].sort((a, b) => a[0] - b[0])) {
    out.set(start, { min: entry.min, max: entry.max, mean: entry.sum / entry.count });
  }
  return out;
}
