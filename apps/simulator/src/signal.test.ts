import { RADIO_BOUNDS } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { Random } from "./random";
import { createRadio, csqFromRssi, driftRadio, type Radio, SIGNAL_BOUNDS, signalPercent } from "./signal";

function walk(seed: number, ticks: number): Radio[] {
  const random = new Random(seed);
  let radio = createRadio(random);
  const trail = [radio];
  for (let i = 0; i < ticks; i++) {
    radio = driftRadio(radio, random);
    trail.push(radio);
  }
  return trail;
}

describe("driftRadio", () => {
  it("keeps every measurement within the simulator's bounds over many ticks, for many sites", () => {
    const names = ["rsrp", "rsrq", "sinr", "rssi"] as const;
    const seen = Object.fromEntries(names.map((name) => [name, { min: Infinity, max: -Infinity }]));
    let fractional = 0;
    for (let seed = 0; seed < 50; seed++) {
      for (const radio of walk(seed, 2000)) {
        for (const name of names) {
          seen[name].min = Math.min(seen[name].min, radio[name]);
          seen[name].max = Math.max(seen[name].max, radio[name]);
        }
        if (!Number.isInteger(radio.rsrp) || !Number.isInteger(radio.rssi)) fractional++;
      }
    }
    for (const name of names) {
      expect(seen[name].min, name).toBeGreaterThanOrEqual(SIGNAL_BOUNDS[name].min);
      expect(seen[name].max, name).toBeLessThanOrEqual(SIGNAL_BOUNDS[name].max);
      // ...which lie inside what the protocol accepts.
      expect(seen[name].min, name).toBeGreaterThanOrEqual(RADIO_BOUNDS[name].min);
      expect(seen[name].max, name).toBeLessThanOrEqual(RADIO_BOUNDS[name].max);
    }
    // 100,000 ticks do reach the edges, so the clamping is exercised.
    expect(seen.rsrp.min).toBe(SIGNAL_BOUNDS.rsrp.min);
    expect(fractional).toBe(0);
  });

  it("actually drifts: values change from tick to tick and wander over a range", () => {
    const trail = walk(7, 500);
    const rsrps = new Set(trail.map((radio) => radio.rsrp));
    const sinrs = new Set(trail.map((radio) => radio.sinr));
    expect(rsrps.size).toBeGreaterThan(10);
    expect(sinrs.size).toBeGreaterThan(50);
    const changed = trail.slice(1).filter((radio, i) => radio.rsrq !== trail[i].rsrq).length;
    expect(changed).toBeGreaterThan(400);
  });

  it("stays near the site's home value rather than running off to a bound", () => {
    for (let seed = 0; seed < 20; seed++) {
      const trail = walk(seed, 3000);
      const home = trail[0].home.rsrp;
      const mean = trail.reduce((sum, radio) => sum + radio.rsrp, 0) / trail.length;
      expect(Math.abs(mean - home)).toBeLessThan(6);
    }
  });

  it("keeps RSSI above RSRP, as the physics has it", () => {
    expect(walk(3, 1000).filter((radio) => radio.rssi <= radio.rsrp)).toEqual([]);
  });

  it("is deterministic for a seed and different across seeds", () => {
    expect(walk(11, 100)).toEqual(walk(11, 100));
    expect(walk(11, 100)).not.toEqual(walk(12, 100));
  });

  it("does not change the radio it is given", () => {
    const random = new Random(1);
    const radio = createRadio(random);
    const copy = structuredClone(radio);
    driftRadio(radio, random);
    expect(radio).toEqual(copy);
  });
});

describe("csqFromRssi and signalPercent", () => {
  it.each([
    [-120, 0],
    [-113, 0],
    [-111, 1],
    [-83, 15],
    [-51, 31],
    [-40, 31],
  ])("rssi %i dBm is csq %i", (rssi, csq) => {
    expect(csqFromRssi(rssi)).toBe(csq);
  });

  it.each([
    [-130, 0],
    [-120, 0],
    [-95, 50],
    [-70, 100],
    [-50, 100],
  ])("rsrp %i dBm is %i%%", (rsrp, percent) => {
    expect(signalPercent(rsrp)).toBe(percent);
  });
});
