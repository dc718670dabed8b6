import { describe, expect, it } from "vitest";
import {
  billingPeriod,
  counterDelta,
  daysBetween,
  generateDeviceKey,
  isHexKey,
  type ModemCounters,
  reachedThreshold,
  simUsageBetween,
} from "../index";

const modem = (over: Partial<ModemCounters> = {}): ModemCounters => ({
  id: "1-1",
  iccid: "8970102123456789012",
  sim: 1,
  rx: 1000,
  tx: 100,
  ...over,
});

describe("counterDelta", () => {
  it("is the growth of a counter, and everything it shows after a reset", () => {
    expect(counterDelta(1000, 1500)).toBe(500);
    expect(counterDelta(1000, 1000)).toBe(0);
    // A reboot set the counter back to zero; 300 bytes moved since.
    expect(counterDelta(1_000_000, 300)).toBe(300);
  });
});

describe("simUsageBetween", () => {
  it("counts nothing without an earlier report: what the counters held before is unknown", () => {
    expect(simUsageBetween(null, [modem()])).toEqual([]);
  });

  it("counts the growth per SIM, keyed by ICCID", () => {
    const usage = simUsageBetween([modem()], [modem({ rx: 4000, tx: 600 })]);
    expect(usage).toEqual([{ iccid: "8970102123456789012", modem: "1-1", sim: 1, rx: 3000, tx: 500 }]);
  });

  it("counts after a counter reset at reboot from zero, not a negative amount", () => {
    const usage = simUsageBetween([modem({ rx: 9_000_000, tx: 800_000 })], [modem({ rx: 2000, tx: 300 })]);
    expect(usage[0]).toMatchObject({ rx: 2000, tx: 300 });
  });

  it("gives the bytes after a SIM switch to the SIM now in the modem, by its ICCID not its slot", () => {
    const before = [modem({ sim: 1, iccid: "8970100000000000001", rx: 5000 })];
    const after = [modem({ sim: 2, iccid: "8970100000000000002", rx: 700, tx: 50 })];
    expect(simUsageBetween(before, after)).toEqual([
      { iccid: "8970100000000000002", modem: "1-1", sim: 2, rx: 700, tx: 50 },
    ]);
  });

  it("follows a SIM moved to the other slot: the same ICCID in slot 2 keeps counting as itself", () => {
    const sim = "8970100000000000009";
    const before = [modem({ id: "1-1", sim: 1, iccid: sim, rx: 100, tx: 10 })];
    const after = [modem({ id: "1-1", sim: 2, iccid: sim, rx: 350, tx: 20 })];
    expect(simUsageBetween(before, after)[0]).toMatchObject({ iccid: sim, sim: 2, rx: 250, tx: 10 });
  });

  it("counts a modem new in this report from its start, and nothing for a modem without a SIM", () => {
    const usage = simUsageBetween(
      [modem()],
      [modem({ rx: 1000, tx: 100 }), modem({ id: "2-1", iccid: "8970100000000000005", rx: 80, tx: 8 })],
    );
    expect(usage).toEqual([{ iccid: "8970100000000000005", modem: "2-1", sim: 1, rx: 80, tx: 8 }]);
    expect(simUsageBetween([modem()], [modem({ iccid: null, rx: 5000 })])).toEqual([]);
  });
});

describe("billingPeriod", () => {
  const at = (day: string) => Date.parse(`${day}T12:00:00Z`);

  it("runs from the reset day of this month, or of the previous one before it is reached", () => {
    expect(billingPeriod(at("2026-03-20"), 15)).toEqual({ start: "2026-03-15", end: "2026-04-15" });
    expect(billingPeriod(at("2026-03-10"), 15)).toEqual({ start: "2026-02-15", end: "2026-03-15" });
    expect(billingPeriod(at("2026-03-15"), 15)).toEqual({ start: "2026-03-15", end: "2026-04-15" });
    expect(billingPeriod(at("2026-01-05"), 1)).toEqual({ start: "2026-01-01", end: "2026-02-01" });
  });

  it("resets on the last day of a month shorter than the reset day", () => {
    expect(billingPeriod(at("2026-02-28"), 31)).toEqual({ start: "2026-02-28", end: "2026-03-31" });
    expect(billingPeriod(at("2026-02-27"), 31)).toEqual({ start: "2026-01-31", end: "2026-02-28" });
    expect(billingPeriod(at("2026-01-02"), 30)).toEqual({ start: "2025-12-30", end: "2026-01-30" });
  });

  it("lists the days of a period", () => {
    expect(daysBetween("2026-02-27", "2026-03-02")).toEqual(["2026-02-27", "2026-02-28", "2026-03-01"]);
  });
});

describe("reachedThreshold", () => {
  it("is the highest of 80 % and 100 % reached", () => {
    expect(reachedThreshold(79, 100)).toBe(0);
    expect(reachedThreshold(80, 100)).toBe(80);
    expect(reachedThreshold(150, 100)).toBe(100);
    expect(reachedThreshold(1, 0)).toBe(0);
  });
});

describe("generateDeviceKey", () => {
  it("makes 64 uppercase hex characters, different each time", () => {
    const keys = new Set(Array.from({ length: 50 }, () => generateDeviceKey()));
    expect(keys.size).toBe(50);
    for (const key of keys) {
      expect(isHexKey(key)).toBe(true);
      expect(key).toBe(key.toUpperCase());
    }
  });
});
