import { describe, expect, it } from "vitest";
import { resolveRoute } from "./apiRoute";

describe("resolveRoute", () => {
  it("splits the method off and encodes each parameter into the path", () => {
    expect(
      resolveRoute("POST /api/report/{device_id}/{report_id}", { device_id: "a/b", report_id: "r 1" }),
    ).toEqual({ method: "POST", path: "/api/report/a%2Fb/r%201" });
    expect(resolveRoute("GET /api/health", undefined)).toEqual({ method: "GET", path: "/api/health" });
  });

  it("refuses to send a path with a parameter left out", () => {
    expect(() => resolveRoute("DELETE /api/device/{dev_id}", {})).toThrow("{dev_id}");
  });
});
