import { checkPassword, DEFAULT_POLICY, type PolicyLevel } from "@cellfleet/contract";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generatePolicyPassword } from "./password.service";

describe("generatePolicyPassword", () => {
  it("always meets the policy it is generated for (the e-mailed passwords must be usable)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PolicyLevel>(0, 1, 2),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom(1, 2, 3, 4),
        (level, min, adminMin, repeats, role) => {
          const policy = {
            ...DEFAULT_POLICY,
            _id: "p",
            policy_level: level,
            password_min_length: min,
            admin_min_length: adminMin,
            password_max_length: 64,
            max_repeated_symbols: repeats === 0 ? 0 : repeats + 1,
            repeated_combination_length: 3,
            repeated_combination_count: 2,
          };
          const password = generatePolicyPassword(policy, role);
          expect(checkPassword(password, policy, { isAdmin: role <= 2 })).toBeNull();
        },
      ),
      { numRuns: 200 },
    );
  });
});
