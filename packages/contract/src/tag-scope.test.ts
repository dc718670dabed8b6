import { describe, expect, it } from "vitest";
import { combineTagScopes, isWithinTagScope, mayHaveTagScope } from "./tag-scope";

describe("tag scopes (ADR 041)", () => {
  it("are for assistants (juniors too) and operators, never admins or superusers", () => {
    expect([1, 2, 3, 4].map((role) => mayHaveTagScope(role as 1 | 2 | 3 | 4))).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });

  it("combine a person's and a token's lists as conditions that must all hold", () => {
    expect(combineTagScopes([], [])).toEqual([]);
    expect(combineTagScopes(["north"], [])).toEqual([["north"]]);
    expect(combineTagScopes([], ["south"])).toEqual([["south"]]);
    expect(combineTagScopes(["north", "east"], ["pumps"])).toEqual([["north", "east"], ["pumps"]]);
  });

  it("hold a router with one tag of each list; a token's list only narrows", () => {
    expect(isWithinTagScope([], [])).toBe(true);
    expect(isWithinTagScope([["north", "east"]], ["east"])).toBe(true);
    expect(isWithinTagScope([["north"]], ["south"])).toBe(false);
    expect(isWithinTagScope([["north"], ["pumps"]], ["north"])).toBe(false);
    expect(isWithinTagScope([["north"], ["pumps"]], ["north", "pumps"])).toBe(true);
  });
});
