import { parseDeviceMessage } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import {
  CONTACT_GRANULARITY_MS,
  collectData,
  diffCollect,
  type ParsedReport,
  planBatch,
} from "./ingest.plan";
import { boardReport, modemsReport } from "./ingest.test-support";

const device = { id: "dev-1", domain_id: "dom-1", ident: "PLAN0001", last_contact: null };
const now = new Date(1_767_225_600_000);

function parsed(topic: string, body: unknown): ParsedReport {
  const result = parseDeviceMessage(topic, JSON.stringify(body));
  if (!result.ok) throw new Error(result.detail);
  return result;
}
const board = (seq: number, uptime: number) =>
  parsed("cellfleet/v1/PLAN0001/collect/board", boardReport(seq, uptime));

describe("diffCollect", () => {
  it("answers the changed, added and removed top-level fields, or null when nothing changed", () => {
    expect(diffCollect({ a: 1, b: [1, 2], c: "x" }, { a: 1, b: [1, 3], d: true })).toEqual({
      b: [1, 3],
      d: true,
      c: null,
    });
    expect(diffCollect({ a: 1, b: { x: [1] } }, { a: 1, b: { x: [1] } })).toBeNull();
    expect(diffCollect(undefined, { a: 1 })).toEqual({ a: 1 });
  });

  it("tells a null, a number, its text and a list apart, and keeps a field that stayed null", () => {
    const before = { a: null, b: 1, c: [1], d: null, e: "x" };
    expect(diffCollect(before, { a: null, b: "1", c: 1, d: [], e: "x" })).toEqual({ b: "1", c: 1, d: [] });
    expect(diffCollect(before, { ...before, c: [1] })).toBeNull();
  });

  it("leaves the envelope out of stored data", () => {
    expect(collectData({ v: 1, seq: 5, ts: 9, uptime: 3 } as never)).toEqual({ uptime: 3 });
  });
});

describe("planBatch", () => {
  it("applies a device's collects in seq order whatever the arrival order, keeping only changes in history", () => {
    const plan = planBatch([board(3, 30), board(1, 10), board(2, 10)], [device], [], now);
    expect(plan.collects).toHaveLength(1);
    expect(plan.collects[0]).toMatchObject({ seq: 3, data: expect.objectContaining({ uptime: 30 }) });
    expect(plan.history.map((h) => [h.seq, h.changes])).toEqual([
      [1, expect.objectContaining({ model: "RUT955", uptime: 10 })],
      [3, { uptime: 30 }],
    ]);
    expect(plan.touches[0]).toMatchObject({ id: "dev-1", seq: 3, model: "RUT955" });
  });

  it("counts a repeat of the stored seq as a duplicate and sends an older unseen report to history only", () => {
    const stored = [{ device_id: "dev-1", type: "board", seq: 5, data: collectData(boardReport(5, 50)) }];
    const plan = planBatch([board(5, 50), board(4, 40)], [device], stored, now);
    expect(plan.duplicates).toBe(1);
    expect(plan.collects).toHaveLength(0);
    expect(plan.history.map((h) => h.seq)).toEqual([4]);
  });

  it("takes the facets from the primary modem and counts reports of unknown devices", () => {
    const modems = parsed("cellfleet/v1/PLAN0001/collect/modems", modemsReport(7, 25));
    const stranger = parsed("cellfleet/v1/NOBODY01/collect/modems", modemsReport(1, 5));
    const plan = planBatch([modems, stranger], [device], [], now);
    expect(plan.touches[0]).toMatchObject({ has_modems: true, signal_csq: 25, network_mode: "LTE" });
    expect(plan.unknownDevice).toBe(1);
  });

  it("reads WAN as up while a modem is online and down when every modem is offline (issue 11)", () => {
    const online = parsed("cellfleet/v1/PLAN0001/collect/modems", modemsReport(7, 25));
    expect(planBatch([online], [device], [], now).touches[0]).toMatchObject({ wan_up: true });
    const report = modemsReport(8, 25);
    const offline = { ...report, modems: report.modems.map((modem) => ({ ...modem, state: 0 })) };
    const down = parsed("cellfleet/v1/PLAN0001/collect/modems", offline);
    expect(planBatch([down], [device], [], now).touches[0]).toMatchObject({ wan_up: false, signal_csq: 25 });
  });

  it("counts a contact stale CONTACT_GRANULARITY_MS (5 s) before the batch's time", () => {
    const plan = planBatch([board(1, 10)], [device], [], now);
    expect(CONTACT_GRANULARITY_MS).toBe(5000);
    expect(plan.contactStaleBefore.getTime()).toBe(now.getTime() - 5000);
  });
});
