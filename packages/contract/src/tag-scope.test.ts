import { describe, expect, it } from "vitest";
import {
  decide,
  PERMISSIONS,
  type PermissionAction,
  type PermissionRule,
  type PermissionSubject,
} from "./permissions";
import { PLUGINS } from "./roles";
import { areTagsWithinTagScope, combineTagScopes, isWithinTagScope, mayHaveTagScope } from "./tag-scope";

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

describe("areTagsWithinTagScope", () => {
  it("holds when every tag of the group lies in every list of the scope", () => {
    expect(areTagsWithinTagScope([], [])).toBe(true);
    expect(areTagsWithinTagScope([["north", "east"]], ["east", "north"])).toBe(true);
    expect(areTagsWithinTagScope([["north"]], ["north", "south"])).toBe(false);
    expect(areTagsWithinTagScope([["north"], ["pumps"]], ["north"])).toBe(false);
    // No tag names every router: never within a scope.
    expect(areTagsWithinTagScope([["north"]], [])).toBe(false);
  });
});

describe("a caller limited to tags (ADR 041)", () => {
  const admin: PermissionSubject = {
    _id: "a",
    role: 2,
    is_junior: false,
    is_demo: false,
    plugins: [...PLUGINS],
  };

  it("is refused what reads the whole domain's record, and nothing else", () => {
    const limited = { ...admin, is_tag_limited: true };
    for (const action of Object.keys(PERMISSIONS) as PermissionAction[]) {
      const rule: PermissionRule = PERMISSIONS[action];
      const expected = rule.wholeDomain ? "deny" : decide(admin, action);
      expect(decide(limited, action), action).toBe(expected);
    }
    expect(decide(limited, "logs.view")).toBe("deny");
    expect(decide(admin, "logs.view")).toBe("allow");
  });
});
