import { DEFAULT_POLICY } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { fromPolicyForm, isWholeInRange, toPolicyForm } from "./policyForm";

describe("policy form values", () => {
  it("round-trips a policy through the form", () => {
    const policy = {
      ...DEFAULT_POLICY,
      name: "Bank",
      policy_level: 2 as const,
      forbidden_phrases: ["qwerty"],
    };
    const { is_default: _, ...body } = policy;
    expect(fromPolicyForm(toPolicyForm(body))).toEqual(body);
  });

  it("starts a new policy from the default one with an empty name", () => {
    const values = toPolicyForm(null);
    expect(values.name).toBe("");
    expect(values.password_min_length).toBe(String(DEFAULT_POLICY.password_min_length));
  });

  it("accepts only whole numbers within bounds", () => {
    expect(isWholeInRange("8", 1, 255)).toBe(true);
    expect(isWholeInRange(" 0 ", 0, 10)).toBe(true);
    expect(isWholeInRange("256", 1, 255)).toBe(false);
    expect(isWholeInRange("1.5", 0, 10)).toBe(false);
    expect(isWholeInRange("", 0, 10)).toBe(false);
    expect(isWholeInRange("-1", 0, 10)).toBe(false);
  });
});
