import { describe, expect, it } from "vitest";
import { latestCollectsCache } from "./latest-collects";

const collect = (deviceId: string, seq: number, data: unknown = { seq }) => ({
  device_id: deviceId,
  type: "modems",
  seq,
  data,
});

describe("the latest collects a node remembers", () => {
  it("answers only for the seq it wrote", () => {
    const cache = latestCollectsCache();
    cache.remember([collect("a", 7, { rssi: -70 })]);
    expect(cache.find("a", "modems", 7)).toEqual({ data: { rssi: -70 } });
    expect(cache.find("a", "modems", 8)).toBeUndefined();
    expect(cache.find("a", "board", 7)).toBeUndefined();
  });

  it("stays within its bound, dropping the least recently used rather than everything", () => {
    const cache = latestCollectsCache(3);
    cache.remember([collect("a", 1), collect("b", 1), collect("c", 1)]);
    expect(cache.find("a", "modems", 1)).toBeDefined();
    cache.remember([collect("d", 1)]);
    expect(cache.size).toBe(3);
    expect(cache.find("b", "modems", 1)).toBeUndefined();
    for (const device of ["a", "c", "d"]) expect(cache.find(device, "modems", 1)).toBeDefined();
  });
});
