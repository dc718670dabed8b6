import {
  type MODEM_CHANGE_FIELDS,
  type ModemChangeMark,
  type ModemSignalSeries,
  mainChangeField,
  type SignalHistory,
  type SignalMetric,
} from "@cellfleet/contract";

// Turns a signal history answer into what uPlot draws: aligned columns in seconds, with a gap
// (nulls) where the router was offline, so no line is drawn across an outage.

/** uPlot's aligned data: x (seconds) first, then min, max and mean of one metric. */
export type MetricColumns = [number[], (number | null)[], (number | null)[], (number | null)[]];

/** Whether a metric has any value in the series (2G/3G modems report no RSRP, RSRQ or SINR). */
export function hasValues(series: ModemSignalSeries, metric: SignalMetric): boolean {
  return series[metric].mean.some((value) => value !== null);
}

/**
 * The columns of one metric: each bucket at its middle, and a null point wherever an outage begins
 * between two buckets (or two buckets are further apart than twice the bucket), which breaks the line.
 */
export function metricColumns(
  series: ModemSignalSeries,
  metric: SignalMetric,
  bucketMs: number,
  outages: SignalHistory["outages"],
): MetricColumns {
  const xs: number[] = [];
  const mins: (number | null)[] = [];
  const maxs: (number | null)[] = [];
  const means: (number | null)[] = [];
  const gap = (x: number) => {
    xs.push(x / 1000);
    mins.push(null);
    maxs.push(null);
    means.push(null);
  };
  for (let i = 0; i < series.t.length; i++) {
    const t = series.t[i] as number;
    const previous = i > 0 ? (series.t[i - 1] as number) : null;
    if (previous !== null) {
      const outage = outages.find((o) => o.from >= previous && o.from < t + bucketMs);
      if (outage || t - previous > 2 * bucketMs)
        gap(outage ? Math.max(outage.from, previous + 1) : previous + bucketMs);
    }
    xs.push((t + bucketMs / 2) / 1000);
    mins.push(series[metric].min[i] ?? null);
    maxs.push(series[metric].max[i] ?? null);
    means.push(series[metric].mean[i] ?? null);
  }
  // x must grow strictly: a gap point placed on a bucket's own time would not.
  for (let i = 1; i < xs.length; i++) {
    if ((xs[i] as number) <= (xs[i - 1] as number)) xs[i] = (xs[i - 1] as number) + 0.001;
  }
  return [xs, mins, maxs, means];
}

/** A marker's short label: the first changed field of a modem change, as "from → to". */
export function changeLabel(
  change: ModemChangeMark,
): { field: (typeof MODEM_CHANGE_FIELDS)[number]; text: string } | null {
  const field = mainChangeField(change.changes);
  if (!field) return null;
  const values = change.changes[field];
  if (!values) return null;
  if (field === "iccid") return { field, text: `…${String(values.to).slice(-4)}` };
  return { field, text: `${values.from}→${values.to}` };
}
