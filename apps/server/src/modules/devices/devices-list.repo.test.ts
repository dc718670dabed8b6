import { describe, expect, it } from "vitest";
import { pageWalk } from "./devices-list.repo";

describe("pageWalk", () => {
  it.each([
    ["the first page", { limit: 100, offset: 0, total: 10_000 }, { reversed: false, limit: 100, offset: 0 }],
    [
      "a page just before the middle",
      { limit: 100, offset: 4900, total: 10_000 },
      { reversed: false, limit: 100, offset: 4900 },
    ],
    [
      "a page from the middle on, from the end",
      { limit: 100, offset: 5000, total: 10_000 },
      { reversed: true, limit: 100, offset: 4900 },
    ],
    [
      "the last page, from the end",
      { limit: 100, offset: 9900, total: 10_000 },
      { reversed: true, limit: 100, offset: 0 },
    ],
    [
      "a partial last page, from the end",
      { limit: 10, offset: 20, total: 25 },
      { reversed: true, limit: 5, offset: 0 },
    ],
    [
      "an unknown total, from the start",
      { limit: 10, offset: 90, total: null },
      { reversed: false, limit: 10, offset: 90 },
    ],
    [
      "a page past the total, from the start",
      { limit: 10, offset: 30, total: 25 },
      { reversed: false, limit: 10, offset: 30 },
    ],
  ])("reads %s", (_name, page, walk) => {
    expect(pageWalk(page)).toEqual(walk);
  });
});
