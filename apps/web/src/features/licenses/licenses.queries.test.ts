import type { License } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { FRESH_FAILURE_MS, freshFailures } from "./licenses.queries";

const NOW = Date.parse("2026-11-25T02:00:00Z");

const license = (id: string, error: License["error"], checkedAgoMs: number, refreshing = false): License => ({
  _id: id,
  license_id: id,
  status: error ? 25 : 2,
  error,
  update_time: null,
  check_time: new Date(NOW - checkedAgoMs).toISOString(),
  validFromDate: null,
  validUpToDate: null,
  activation_date: null,
  expire: false,
  devices: 0,
  refreshing,
});

describe("freshFailures", () => {
  it("announces a failure that just happened, once; never an old one, a success or a running refresh", () => {
    const announced = new Set<string>();
    const items = [
      license("new", "unreachable", 1000),
      license("old", "banned", FRESH_FAILURE_MS + 1),
      license("fine", null, 1000),
      license("running", "unreachable", 1000, true),
    ];
    expect(freshFailures(items, NOW, announced).map((item) => item._id)).toEqual(["new"]);
    expect(freshFailures(items, NOW, announced)).toEqual([]);
    // A later attempt that fails again is news again.
    expect(freshFailures([license("new", "unreachable", 10)], NOW + 5000, announced)).toHaveLength(1);
  });
});
