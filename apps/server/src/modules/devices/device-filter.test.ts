import { computeDeviceStatus, type StatusThreshold, signalQualityFromCsq } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { CSQ_RANGES, contactRangesByStatus, statusByRanges } from "./device-filter";

const NOW = new Date("2026-11-21T12:00:00Z");
const MINUTE = 60_000;

describe("contactRangesByStatus", () => {
  const thresholdSets: StatusThreshold[][] = [
    [
      { name: "online", minutes: 15 },
      { name: "warning", minutes: 60 },
    ],
    [
      { name: "warning", minutes: 30 },
      { name: "online", minutes: 5 },
    ],
    // Equal minutes: nothing is left for warning.
    [
      { name: "online", minutes: 20 },
      { name: "warning", minutes: 20 },
    ],
    [{ name: "warning", minutes: 10 }],
    [],
    // A pending band between online and warning, in any order; an empty one; pending alone.
    [
      { name: "online", minutes: 15 },
      { name: "pending", minutes: 30 },
      { name: "warning", minutes: 60 },
    ],
    [
      { name: "warning", minutes: 60 },
      { name: "pending", minutes: 20 },
      { name: "online", minutes: 5 },
    ],
    [
      { name: "online", minutes: 15 },
      { name: "pending", minutes: 15 },
      { name: "warning", minutes: 60 },
    ],
    [{ name: "pending", minutes: 10 }],
  ];

  it.each(thresholdSets.map((set) => [JSON.stringify(set), set] as const))(
    "puts every contact time in the status computeDeviceStatus gives (%s)",
    (_label, thresholds) => {
      const ranges = contactRangesByStatus(thresholds, NOW);
      const ages = [null, -MINUTE, 0, 1];
      for (const minutes of [5, 10, 15, 20, 30, 60])
        ages.push(minutes * MINUTE - 1, minutes * MINUTE, minutes * MINUTE + 1);
      ages.push(3 * 24 * 60 * MINUTE);
      for (const age of ages) {
        const contact = age === null ? null : new Date(NOW.getTime() - age);
        const expected = computeDeviceStatus(contact?.getTime() ?? null, NOW.getTime(), thresholds);
        expect(statusByRanges(ranges, contact), `age ${age}`).toBe(expected);
      }
    },
  );
});

describe("CSQ_RANGES", () => {
  it("matches signalQualityFromCsq for every CSQ value", () => {
    for (const csq of [null, -1, ...Array.from({ length: 32 }, (_, i) => i), 32, 99]) {
      const quality = signalQualityFromCsq(csq);
      const matching = Object.entries(CSQ_RANGES).filter(([, range]) =>
        range.kind === "unknown"
          ? csq === null || csq < 0 || csq > 31
          : csq !== null && csq >= range.min && csq <= range.max,
      );
      expect(
        matching.map(([name]) => name),
        `csq ${csq}`,
      ).toEqual([quality]);
    }
  });
});
