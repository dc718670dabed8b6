import { describe, expect, it } from "vitest";
import { backupStretches, clipAndMerge, routerFigures } from "./uptime.figures";

const H = 3_600_000;

describe("backupStretches", () => {
  it("reads the slot before the first change from that change, and after the last from it", () => {
    const changes = [
      { time: 10 * H, from: 2, to: 1 },
      { time: 20 * H, from: 1, to: 3 },
    ];
    expect(backupStretches(changes, 3)).toEqual([
      { from: Number.NEGATIVE_INFINITY, to: 10 * H },
      { from: 20 * H, to: Number.POSITIVE_INFINITY },
    ]);
  });

  it("takes the slot now when history kept no change, and SIM 1 when nothing is known", () => {
    expect(backupStretches([], 2)).toEqual([
      { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY },
    ]);
    expect(backupStretches([], 1)).toEqual([]);
    expect(backupStretches([], null)).toEqual([]);
  });
});

describe("clipAndMerge", () => {
  it("keeps the parts inside, joining overlaps so no time counts twice", () => {
    expect(
      clipAndMerge(
        [
          { from: -5 * H, to: 2 * H },
          { from: 1 * H, to: 3 * H },
          { from: 9 * H, to: 12 * H },
        ],
        { from: 0, to: 10 * H },
      ),
    ).toEqual([
      { from: 0, to: 3 * H },
      { from: 9 * H, to: 10 * H },
    ]);
  });
});

describe("routerFigures", () => {
  it("counts a router that never reported as nothing observed, not as down", () => {
    const figures = routerFigures({
      observed: null,
      outages: [],
      backup: [],
      csq: null,
      sims: [],
      firmwareChanges: 0,
    });
    expect(figures.observed_ms).toBe(0);
    expect(figures.connected_percent).toBeNull();
    expect(figures.signal.quality).toBe("unknown");
  });

  it("measures overlapping outages once in the total but counts each", () => {
    const figures = routerFigures({
      observed: { from: 0, to: 10 * H },
      outages: [
        { from: 1 * H, to: 3 * H },
        { from: 2 * H, to: 4 * H },
      ],
      backup: [],
      csq: 22,
      sims: [],
      firmwareChanges: 0,
    });
    expect(figures.outages).toEqual({ count: 2, longest_ms: 2 * H, total_ms: 3 * H });
    expect(figures.connected_percent).toBe(70);
    expect(figures.signal).toEqual({ csq: 22, quality: "excellent" });
  });
});
