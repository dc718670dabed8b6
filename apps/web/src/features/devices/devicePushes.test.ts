import type { Device, DeviceDetail } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { PUSH_LOG_KEEP_MS, PUSH_LOG_MAX } from "../../app/realtime/pushLog";
import { testDevice } from "../../test/fixtures";
import { DevicePushLog, patchDeviceDetail } from "./devicePushes";
import type { DeviceListPage } from "./devices.api";

const device = (id: string, connected: boolean | null, events = 0): Device =>
  testDevice(Number(id), { connected, events, status: "online", signal: { csq: 20, quality: "normal" } });

const pageOf = (...rows: Device[]): DeviceListPage => ({
  header: { total: rows.length, page: 0, size: 10 },
  rows,
  facets: null,
  isComplete: true,
});

describe("DevicePushLog", () => {
  it("applies to a page read meanwhile the pushes that came after its read began, in order", () => {
    const log = new DevicePushLog();
    log.record("update", [{ _id: "id-1", signal: { csq: 5, quality: "cellEdge" } }]);
    const mark = log.mark();
    // While the page is read: the router drops off, then a second change of another field.
    log.record("update", [{ _id: "id-1", connected: false }]);
    log.record("update", [{ _id: "id-1", connected: false, signal: { csq: 9, quality: "cellEdge" } }]);
    // The server read the row before both: the answer says connected, csq 20.
    const answered = log.onPage(mark, pageOf(device("1", true, 3), device("2", true)));
    expect(answered.rows[0]).toMatchObject({ connected: false, signal: { csq: 9 }, events: 3 });
    expect(answered.rows[1]?.connected).toBe(true);
  });

  it("leaves a page alone when nothing was pushed since its read began", () => {
    const log = new DevicePushLog();
    log.record("update", [{ _id: "id-1", connected: false }]);
    const page = pageOf(device("1", true));
    expect(log.onPage(log.mark(), page)).toBe(page);
  });

  it("drops a row deleted while the page was read; a put is not kept (the lists read again)", () => {
    const log = new DevicePushLog();
    const mark = log.mark();
    log.record("put", [{ _id: "id-3" }]);
    log.record("delete", [{ _id: "id-2" }]);
    const answered = log.onPage(mark, pageOf(device("1", true), device("2", true)));
    expect(answered.rows.map((row) => row._id)).toEqual(["id-1"]);
    expect(answered.header?.total).toBe(1);
  });

  it("applies the pushes to a device page read meanwhile, its own event count kept", () => {
    const log = new DevicePushLog();
    const mark = log.mark();
    log.record("update", [{ _id: "id-2", connected: true }]);
    log.record("update", [{ _id: "id-1", connected: false }]);
    const detail: DeviceDetail = { device: device("1", true, 7), collects: [] };
    expect(log.onDetail(mark, detail).device).toMatchObject({ connected: false, events: 7 });
    expect(patchDeviceDetail(detail, "update", [{ _id: "id-2", connected: false }])).toBe(detail);
  });

  it("keeps a minute of pushes, and no more than its bound", () => {
    let now = 0;
    const log = new DevicePushLog(() => now);
    const mark = log.mark();
    log.record("update", [{ _id: "id-1", connected: false }]);
    now = PUSH_LOG_KEEP_MS + 1;
    log.record("update", [{ _id: "id-2", connected: false }]);
    const answered = log.onPage(mark, pageOf(device("1", true), device("2", true)));
    expect(answered.rows.map((row) => row.connected)).toEqual([true, false]);
    for (let index = 0; index < PUSH_LOG_MAX + 10; index += 1)
      log.record("update", [{ _id: "id-9", connected: index % 2 === 0 }]);
    expect(log.onPage(mark, pageOf(device("2", true))).rows[0]?.connected).toBe(true);
  });
});
