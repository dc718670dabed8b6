// How long reports wait from reaching this node until their batch commits (issue 31: the ingest
// latency histogram of GET /metrics). Fixed buckets, counted here and read at each scrape, so ingest
// needs no metrics library and a scrape reads what ingest counted since the node started.

/** Upper bounds in seconds; a last bucket (+Inf) takes the rest. */
export const STORED_SECONDS_BOUNDS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

/** Counts per bucket (not cumulative; one more than the bounds, for +Inf), their sum and count. */
export interface StoredLatency {
  bounds: readonly number[];
  counts: number[];
  sumSeconds: number;
  count: number;
}

/** A histogram to observe into, and a copy of it to read. */
export function createStoredLatency() {
  const counts = new Array<number>(STORED_SECONDS_BOUNDS.length + 1).fill(0);
  let sumSeconds = 0;
  let count = 0;
  return {
    observe(seconds: number): void {
      let bucket = STORED_SECONDS_BOUNDS.findIndex((bound) => seconds <= bound);
      if (bucket < 0) bucket = STORED_SECONDS_BOUNDS.length;
      counts[bucket] = (counts[bucket] ?? 0) + 1;
      sumSeconds += seconds;
      count++;
    },
    read(): StoredLatency {
      return { bounds: STORED_SECONDS_BOUNDS, counts: [...counts], sumSeconds, count };
    },
  };
}
