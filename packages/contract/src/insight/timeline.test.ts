import { describe, expect, it } from "vitest";
import type { StatusThreshold } from "../status";
import { buildStatusTimeline, type ModemIdentity, mainChangeField, modemChangesBetween } from "./index";

const MIN = 60_000;
const thresholds: StatusThreshold[] = [
  { name: "online", minutes: 15 },
  { name: "warning", minutes: 60 },
];

describe("buildStatusTimeline", () => {
  it("is online throughout when there was no outage", () => {
    expect(buildStatusTimeline({ from: 0, to: 100 * MIN, since: 0, outages: [], thresholds })).toEqual([
      { from: 0, to: 100 * MIN, status: "online" },
    ]);
  });

  it("grows an outage from offline to warning to critical as spec section 4 counts the silence", () => {
    const timeline = buildStatusTimeline({
      from: 0,
      to: 200 * MIN,
      since: 0,
      outages: [{ from: 10 * MIN, to: 100 * MIN }],
      thresholds,
    });
    expect(timeline).toEqual([
      { from: 0, to: 10 * MIN, status: "online" },
      { from: 10 * MIN, to: 25 * MIN, status: "offline" },
      { from: 25 * MIN, to: 70 * MIN, status: "warning" },
      { from: 70 * MIN, to: 100 * MIN, status: "critical" },
      { from: 100 * MIN, to: 200 * MIN, status: "online" },
    ]);
  });

  it("shows a short outage only as offline, and clips outages to the range", () => {
    const timeline = buildStatusTimeline({
      from: 30 * MIN,
      to: 60 * MIN,
      since: 0,
      outages: [
        { from: 20 * MIN, to: 40 * MIN },
        { from: 50 * MIN, to: 56 * MIN },
      ],
      thresholds,
    });
    expect(timeline).toEqual([
      { from: 30 * MIN, to: 35 * MIN, status: "offline" },
      { from: 35 * MIN, to: 40 * MIN, status: "warning" },
      { from: 40 * MIN, to: 50 * MIN, status: "online" },
      { from: 50 * MIN, to: 56 * MIN, status: "offline" },
      { from: 56 * MIN, to: 60 * MIN, status: "online" },
    ]);
  });

  it("draws nothing before the first contact, or at all for a router that never reported", () => {
    expect(buildStatusTimeline({ from: 0, to: 60 * MIN, since: null, outages: [], thresholds })).toEqual([]);
    expect(buildStatusTimeline({ from: 0, to: 60 * MIN, since: 45 * MIN, outages: [], thresholds })).toEqual([
      { from: 45 * MIN, to: 60 * MIN, status: "online" },
    ]);
  });

  it("follows the domain's thresholds", () => {
    const slow: StatusThreshold[] = [
      { name: "online", minutes: 30 },
      { name: "warning", minutes: 120 },
    ];
    const timeline = buildStatusTimeline({
      from: 0,
      to: 60 * MIN,
      since: 0,
      outages: [{ from: 0, to: 60 * MIN }],
      thresholds: slow,
    });
    expect(timeline).toEqual([
      { from: 0, to: 30 * MIN, status: "offline" },
      { from: 30 * MIN, to: 60 * MIN, status: "warning" },
    ]);
  });
});

describe("modemChangesBetween", () => {
  const modem = (over: Partial<ModemIdentity> = {}): ModemIdentity => ({
    id: "1-1",
    sim: 1,
    iccid: "8970100000000000001",
    operator: "MegaFon",
    band: "B3",
    mode: "LTE",
    ...over,
  });

  it("marks a SIM switch with its slot, card and operator", () => {
    const changes = modemChangesBetween(
      [modem()],
      [modem({ sim: 2, iccid: "8970100000000000002", operator: "Beeline" })],
    );
    expect(changes).toEqual([
      {
        modem: "1-1",
        changes: {
          sim: { from: 1, to: 2 },
          iccid: { from: "8970100000000000001", to: "8970100000000000002" },
          operator: { from: "MegaFon", to: "Beeline" },
        },
      },
    ]);
    expect(mainChangeField(changes[0]?.changes ?? {})).toBe("sim");
  });

  it("marks band and mode changes, and nothing when a value is missing on either side", () => {
    expect(modemChangesBetween([modem()], [modem({ band: "B20", mode: "3G" })])[0]?.changes).toEqual({
      band: { from: "B3", to: "B20" },
      mode: { from: "LTE", to: "3G" },
    });
    expect(modemChangesBetween([modem()], [modem({ band: null, operator: null })])).toEqual([]);
    expect(modemChangesBetween([modem({ band: null })], [modem()])).toEqual([]);
    expect(modemChangesBetween([modem()], [modem({ mode: "unknown" })])).toEqual([]);
  });

  it("marks nothing for the first report or a modem new in this one", () => {
    expect(modemChangesBetween(null, [modem()])).toEqual([]);
    expect(modemChangesBetween([modem()], [modem({ id: "2-1", band: "B7" })])).toEqual([]);
  });
});
