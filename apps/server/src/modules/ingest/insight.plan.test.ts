import { parseDeviceMessage } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { collectData, type ParsedReport, planBatch } from "./ingest.plan";
import { modemsReport } from "./ingest.test-support";
import { ROLLUP_GRACE_MS, sampleTime } from "./insight.plan";

const now = new Date(Date.UTC(2026, 2, 10, 12, 30));
const device = {
  id: "dev-1",
  domain_id: "dom-1",
  ident: "PLAN0001",
  last_contact: new Date(now.getTime() - 30_000),
};

type Modem = ReturnType<typeof modemsReport>["modems"][number];

function modems(seq: number, ts: number, change: Partial<Modem> = {}): ParsedReport {
  const body = modemsReport(seq, 20);
  const result = parseDeviceMessage(
    "cellfleet/v1/PLAN0001/collect/modems",
    JSON.stringify({ ...body, ts, modems: [{ ...body.modems[0], ...change }] }),
  );
  if (!result.ok) throw new Error(result.detail);
  return result;
}

const stored = (report: ParsedReport) => [
  { device_id: "dev-1", type: "modems", seq: report.message.seq, data: collectData(report.message) },
];

describe("insight in the batch plan", () => {
  it("samples every modem of a newer report at the router's time, CSQ 99 as no value", () => {
    const ts = now.getTime() - 10_000;
    const plan = planBatch([modems(2, ts, { csq: 99, rsrp: -101 })], [device], [], now);
    expect(plan.insight.samples).toEqual([
      {
        device_id: "dev-1",
        modem: "1-1",
        time: new Date(ts),
        rsrp: -101,
        rsrq: -9.5,
        sinr: 13.2,
        rssi: -67,
        csq: null,
      },
    ]);
    expect(plan.insight.dirty.size).toBe(0);
    expect(plan.insight.outages).toEqual([]);
  });

  it("draws a report from a clock running ahead at the server's time", () => {
    expect(sampleTime(now.getTime() + 3_600_000, now)).toEqual(now);
  });

  it("counts the bytes between two reports to the SIM by ICCID, and a counter reset from zero", () => {
    const first = modems(1, now.getTime() - 60_000, { rx: 5000, tx: 500 });
    const second = modems(2, now.getTime() - 30_000, { rx: 8000, tx: 900 });
    const third = modems(3, now.getTime(), { rx: 100, tx: 10 });
    const plan = planBatch([second, third], [device], stored(first), now);
    expect([...plan.insight.usage.values()]).toEqual([
      {
        domain_id: "dom-1",
        iccid: "8970102123456789012",
        day: "2026-03-10",
        device_id: "dev-1",
        modem: "1-1",
        slot: 1,
        rx: 3000 + 100,
        tx: 400 + 10,
        seen: now,
      },
    ]);
  });

  it("marks a SIM switch and counts what follows to the new card", () => {
    const first = modems(1, now.getTime() - 60_000, { rx: 5000 });
    const switched = modems(2, now.getTime(), {
      sim: 2,
      iccid: "8970100000000000002",
      operator: "Beeline",
      rx: 300,
      tx: 30,
    });
    const plan = planBatch([switched], [device], stored(first), now);
    expect(plan.insight.changes).toEqual([
      {
        device_id: "dev-1",
        time: now,
        modem: "1-1",
        changes: {
          sim: { from: 1, to: 2 },
          iccid: { from: "8970102123456789012", to: "8970100000000000002" },
          operator: { from: "MegaFon", to: "Beeline" },
        },
      },
    ]);
    expect([...plan.insight.usage.values()]).toMatchObject([
      { iccid: "8970100000000000002", slot: 2, rx: 300 },
    ]);
  });

  it("records no sample, usage or change for a late report, which only goes to history", () => {
    const latest = modems(5, now.getTime());
    const plan = planBatch([modems(4, now.getTime() - 60_000, { rx: 1 })], [device], stored(latest), now);
    expect(plan.history).toHaveLength(1);
    expect(plan.insight.samples).toEqual([]);
    expect(plan.insight.usage.size).toBe(0);
  });

  it("records an outage from the last contact when it is more than five minutes old", () => {
    const silent = { ...device, last_contact: new Date(now.getTime() - 20 * 60_000) };
    const plan = planBatch([modems(1, now.getTime())], [silent], [], now);
    expect(plan.insight.outages).toEqual([{ device_id: "dev-1", started: silent.last_contact, ended: now }]);
    const justNow = planBatch([modems(1, now.getTime())], [{ ...device, last_contact: null }], [], now);
    expect(justNow.insight.outages).toEqual([]);
  });

  it("marks an hour that may be rolled up already for rolling up again", () => {
    const queued = now.getTime() - 2 * 3_600_000;
    const plan = planBatch([modems(1, queued)], [device], [], now);
    expect([...plan.insight.dirty.values()]).toEqual([
      { device_id: "dev-1", hour: new Date(Date.UTC(2026, 2, 10, 10)) },
    ]);
    // A report from the last minutes of the previous hour, within the grace, is not late.
    const edge = new Date(Date.UTC(2026, 2, 10, 13, 0, 0) + ROLLUP_GRACE_MS - 1000);
    const onTime = planBatch([modems(1, edge.getTime() - 2 * ROLLUP_GRACE_MS)], [device], [], edge);
    expect(onTime.insight.dirty.size).toBe(0);
  });
});
