import { describe, expect, it } from "vitest";
import { pageWalk } from "./devices-list.repo";

describe("pageWalk", () => {
  it("reads pages up to the middle from the start", () => {
    expect(pageWalk({ limit: 100, offset: 0, total: 10_000 })).toEqual({
      reversed: false,
      limit: 100,
      offset: 0,
    });
    expect(pageWalk({ limit: 100, offset: 4900, total: 10_000 })).toEqual({
      reversed: false,
      limit: 100,
      offset: 4900,
    });
  });

  it("reads pages past the middle from the end, the last one partial", () => {
    expect(pageWalk({ limit: 100, offset: 5000, total: 10_000 })).toEqual({
      reversed: true,
      limit: 100,
      offset: 4900,
    });
    expect(pageWalk({ limit: 100, offset: 9900, total: 10_000 })).toEqual({
      reversed: true,
      limit: 100,
      offset: 0,
    });
    expect(pageWalk({ limit: 10, offset: 20, total: 25 })).toEqual({ reversed: true, limit: 5, offset: 0 });
  });

  it("reads from the start when the total is unknown or the page lies past it", () => {
    expect(pageWalk({ limit: 10, offset: 90, total: null })).toEqual({
      reversed: false,
      limit: 10,
      offset: 90,
    });
    expect(pageWalk({ limit: 10, offset: 30, total: 25 })).toEqual({
      reversed: false,
      limit: 10,
      offset: 30,
    });
  });
});
