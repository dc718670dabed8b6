import { describe, expect, it } from "vitest";
import { customRange, fromDateInput, presetRange, toDateInput } from "./dateRange";

const NOW = new Date(2026, 10, 21, 13, 30).getTime();

describe("date range presets", () => {
  it("today runs from local midnight to now", () => {
    const range = presetRange("today", NOW);
    expect(range.since).toBe(new Date(2026, 10, 21).getTime());
    expect(range.until).toBe(NOW);
  });

  it("yesterday is the whole previous local day", () => {
    const range = presetRange("yesterday", NOW);
    expect(range.since).toBe(new Date(2026, 10, 20).getTime());
    expect(range.until).toBe(new Date(2026, 10, 21).getTime() - 1);
  });

  it("week spans 604800 seconds back from now", () => {
    const range = presetRange("week", NOW);
    expect((range.until ?? 0) - (range.since ?? 0)).toBe(604_800_000);
  });

  it("all has open ends", () => {
    expect(presetRange("all", NOW)).toEqual({ tab: "all", since: null, until: null });
  });
});

describe("custom range", () => {
  it("covers whole days and never reaches the future", () => {
    const range = customRange("2026-11-19", "2026-11-30", NOW);
    expect(range.since).toBe(new Date(2026, 10, 19).getTime());
    expect(range.until).toBe(NOW);
  });

  it("swaps ends given backwards", () => {
    const range = customRange("2026-11-20", "2026-11-18", NOW);
    expect(range.since).toBe(new Date(2026, 10, 18).getTime());
    expect(range.until).toBe(new Date(2026, 10, 21).getTime() - 1);
  });

  it("leaves a missing end open", () => {
    expect(customRange("", "2026-11-18", NOW).since).toBeNull();
    expect(customRange("2026-11-18", "", NOW).until).toBeNull();
  });

  it("round-trips date inputs", () => {
    expect(fromDateInput(toDateInput(NOW))).toBe(new Date(2026, 10, 21).getTime());
    expect(fromDateInput("nonsense")).toBeNull();
  });
});
