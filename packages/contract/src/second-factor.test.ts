import { describe, expect, it } from "vitest";
import { isHeldOnProfile } from "./routes";
import { isSecondFactorRequired } from "./second-factor";

describe("second factor rules", () => {
  it("asks admins and superusers under 'admins', everybody under 'everybody', nobody under 'nobody'", () => {
    const roles = [1, 2, 3, 4] as const;
    expect(roles.map((role) => isSecondFactorRequired("nobody", role))).toEqual([false, false, false, false]);
    expect(roles.map((role) => isSecondFactorRequired("admins", role))).toEqual([true, true, false, false]);
    expect(roles.map((role) => isSecondFactorRequired("everybody", role))).toEqual([true, true, true, true]);
  });

  it("holds a person on the profile page for a factory password or a factor to enrol", () => {
    expect(isHeldOnProfile({ role: 2, factory_password: false })).toBe(false);
    expect(isHeldOnProfile({ role: 2, factory_password: true })).toBe(true);
    expect(isHeldOnProfile({ role: 2, factory_password: false, second_factor_pending: true })).toBe(true);
  });
});
