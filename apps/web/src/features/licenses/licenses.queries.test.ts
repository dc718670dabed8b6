import type { License } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { finishedWithError } from "./licenses.queries";

const license = (id: string, refreshing: boolean, error: License["error"]): License => ({
  _id: id,
  license_id: id,
  status: error ? 25 : 2,
  error,
  update_time: null,
  check_time: null,
  validFromDate: null,
  validUpToDate: null,
  activation_date: null,
  expire: false,
  devices: 0,
  refreshing,
});

describe("finishedWithError", () => {
  it("names the licences whose refresh just ended with an error, once", () => {
    const before = [license("a", true, null), license("b", true, null), license("c", false, "unreachable")];
    const after = [
      license("a", false, "unreachable"),
      license("b", false, null),
      license("c", false, "unreachable"),
    ];
    expect(finishedWithError(before, after).map((item) => item._id)).toEqual(["a"]);
    expect(finishedWithError(after, after)).toEqual([]);
  });
});
