import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { signalQualityFromCsq } from "../status";
import {
  bucketStart,
  HISTORY_MAX_BUCKETS,
  HISTORY_RANGE_MS,
  HISTORY_RANGES,
  historyBucketMs,
  SIGNAL_BANDS,
  SIGNAL_METRICS,
  signalQualityOf,
  summariseByBucket,
} from "./index";

const MINUTE = 60_000;

describe("historyBucketMs", () => {
  it("cuts each range of the device page into a few hundred buckets", () => {
    expect(historyBucketMs(HISTORY_RANGE_MS["1h"])).toBe(10_000);
    expect(historyBucketMs(HISTORY_RANGE_MS["24h"])).toBe(5 * MINUTE);
    expect(historyBucketMs(HISTORY_RANGE_MS["7d"])).toBe(30 * MINUTE);
    expect(historyBucketMs(HISTORY_RANGE_MS["30d"])).toBe(2 * 60 * MINUTE);
    for (const range of HISTORY_RANGES) {
      const buckets = Math.ceil(HISTORY_RANGE_MS[range] / historyBucketMs(HISTORY_RANGE_MS[range]));
      expect(buckets).toBeLessThanOrEqual(HISTORY_MAX_BUCKETS);
      expect(buckets).toBeGreaterThan(HISTORY_MAX_BUCKETS / 3);
    }
  });

  it("answers the largest bucket for a range longer than every bucket allows", () => {
    expect(historyBucketMs(10_000 * 86_400_000)).toBe(86_400_000);
  });

  it("aligns buckets to the epoch, so a refresh keeps them where they were", () => {
    expect(bucketStart(1_000_000_123_456, 60_000)).toBe(1_000_000_080_000);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        fc.constantFrom(10_000, 300_000),
        (t, b) => {
          const start = bucketStart(t, b);
          return start <= t && t < start + b && start % b === 0;
        },
      ),
    );
  });
});

describe("summariseByBucket", () => {
  it("keeps min, max and mean per bucket and skips missing values", () => {
    const samples = [
      { time: 0, value: -90 },
      { time: 30_000, value: -100 },
      { time: 59_999, value: null },
      { time: 60_000, value: -80 },
      { time: 200_000, value: null },
    ];
    const summary = summariseByBucket(samples, MINUTE);
    expect([...summary.keys()]).toEqual([0, 60_000]);
    expect(summary.get(0)).toEqual({ min: -100, max: -90, mean: -95 });
    expect(summary.get(60_000)).toEqual({ min: -80, max: -80, mean: -80 });
  });

  it("43,200 minute samples of 30 days make 360 two-hour buckets whose means match the samples'", () => {
    const samples = Array.from({ length: 43_200 }, (_, i) => ({ time: i * MINUTE, value: -100 + (i % 20) }));
    const summary = summariseByBucket(samples, historyBucketMs(HISTORY_RANGE_MS["30d"]));
    expect(summary.size).toBe(360);
    for (const bucket of summary.values()) {
      expect(bucket.min).toBe(-100);
      expect(bucket.max).toBe(-81);
      expect(bucket.mean).toBeCloseTo(-90.5, 6);
    }
  });
});

describe("signal quality bands (spec section 4)", () => {
  it("place each metric's band edges in the better band", () => {
    for (const metric of SIGNAL_METRICS) {
      const bands = SIGNAL_BANDS[metric];
      expect(signalQualityOf(metric, bands.excellent)).toBe("excellent");
      expect(signalQualityOf(metric, bands.excellent - 0.5)).toBe("normal");
      expect(signalQualityOf(metric, bands.normal)).toBe("normal");
      expect(signalQualityOf(metric, bands.normal - 0.5)).toBe("midCell");
      expect(signalQualityOf(metric, bands.midCell)).toBe("midCell");
      expect(signalQualityOf(metric, bands.midCell - 0.5)).toBe("cellEdge");
      expect(signalQualityOf(metric, null)).toBe("unknown");
      expect(signalQualityOf(metric, Number.NaN)).toBe("unknown");
    }
  });

  it("read typical values as a field engineer would", () => {
    expect(signalQualityOf("rsrp", -75)).toBe("excellent");
    expect(signalQualityOf("rsrp", -95)).toBe("midCell");
    expect(signalQualityOf("rsrp", -110)).toBe("cellEdge");
    expect(signalQualityOf("rsrq", -9.5)).toBe("excellent");
    expect(signalQualityOf("sinr", 13.2)).toBe("normal");
    expect(signalQualityOf("rssi", -67)).toBe("normal");
  });

  it("agree with signalQualityFromCsq for every CSQ, 99 and out-of-range values unknown", () => {
    for (let csq = -2; csq <= 100; csq++) expect(signalQualityOf("csq", csq)).toBe(signalQualityFromCsq(csq));
    expect(signalQualityOf("csq", 99)).toBe("unknown");
  });
});
