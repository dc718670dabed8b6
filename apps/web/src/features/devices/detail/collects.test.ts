import type { DeviceDetail } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { applyCollectUpdates, collectData, collectUpdatesOf } from "./collects";

const detail = {
  device: { _id: "d1" },
  collects: [
    { type: "board", create_time: null, data: null, is_fresh: false },
    { type: "ethernets", create_time: 1000, data: { ports: [] }, is_fresh: false },
  ],
} as unknown as DeviceDetail;

describe("device page collects", () => {
  it("reads a stored report (without envelope) through the protocol schema, and refuses a bad one", () => {
    expect(collectData(detail, "ethernets")).toMatchObject({ ports: [] });
    const bad = {
      ...detail,
      collects: [{ type: "ethernets", create_time: 1, data: { ports: "x" }, is_fresh: true }],
    };
    expect(collectData(bad as DeviceDetail, "ethernets")).toBeNull();
    expect(collectData(detail, "board")).toBeNull();
  });

  it("applies the newest socket collect of its own device only, marking it fresh", () => {
    const updates = collectUpdatesOf({
      type: "collects",
      content: [
        { device_id: "d1", type: "ethernets", create_time: 2000, data: { ports: [{ name: "LAN1" }] } },
        { device_id: "d1", type: "ethernets", create_time: 1500, data: { ports: [] } },
        { device_id: "other", type: "board", create_time: 3000, data: {} },
        { nonsense: true },
      ],
    });
    expect(updates).toHaveLength(3);
    const next = applyCollectUpdates(detail, updates);
    expect(next.collects[1]).toMatchObject({
      create_time: 2000,
      is_fresh: true,
      data: { ports: [{ name: "LAN1" }] },
    });
    expect(next.collects[0]).toBe(detail.collects[0]);
  });

  it("keeps a newer stored collect over an older socket one", () => {
    const next = applyCollectUpdates(detail, [
      { device_id: "d1", type: "ethernets", create_time: 500, data: {} },
    ]);
    expect(next.collects[1]?.create_time).toBe(1000);
  });
});
