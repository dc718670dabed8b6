import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DEFAULT_POLICY, LOG_PAGE_SIZE } from "..";
import { UpdateDomainBodySchema } from "./domains";
import { CreatePolicySchema, UpdatePolicySchema } from "./policies";
import { RegistrationRequestSchema } from "./registration";
import { CreateAccountingUserSchema, UpdateAccountingUserSchema } from "./users";
import { WebActionsRequestSchema } from "./web-actions";

describe("accounting bodies", () => {
  it("keep absent fields absent in change bodies, so a change never clears what it did not name", () => {
    const keys = ["username", "full_name", "email", "phone", "policy_id", "blocked", "is_junior"] as const;
    fc.assert(
      fc.property(fc.subarray([...keys]), fc.constantFrom("", "  "), (present, blank) => {
        const body: Record<string, unknown> = {};
        for (const key of present) {
          body[key] = {
            username: "user1",
            full_name: "Name",
            email: blank,
            phone: blank,
            policy_id: null,
            blocked: false,
            is_junior: false,
          }[key];
        }
        const parsed = UpdateAccountingUserSchema.parse(body);
        expect(Object.keys(parsed).sort()).toEqual([...present].sort());
        if (present.includes("email")) expect(parsed.email).toBeNull();
      }),
    );
    expect(UpdateDomainBodySchema.parse({ manager: "M" })).toEqual({ manager: "M" });
  });

  it("allow the junior flag only with role 3", () => {
    const base = { username: "user1", full_name: "N", password: "x" };
    expect(CreateAccountingUserSchema.safeParse({ ...base, role: 3, is_junior: true }).success).toBe(true);
    expect(CreateAccountingUserSchema.safeParse({ ...base, role: 4, is_junior: true }).success).toBe(false);
  });

  it("refuse a policy whose minimum lengths exceed its maximum", () => {
    const { _id, is_default, ...fields } = { _id: "x", ...DEFAULT_POLICY };
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 255 }), fc.integer({ min: 1, max: 255 }), (min, max) => {
        const ok = CreatePolicySchema.safeParse({
          ...fields,
          password_min_length: min,
          admin_min_length: min,
          password_max_length: max,
        }).success;
        expect(ok).toBe(min <= max);
      }),
    );
    expect(UpdatePolicySchema.safeParse({ password_min_length: 9 }).success).toBe(true);
  });

  it("require consent and a corporate e-mail at registration", () => {
    const body = {
      company_name: "C",
      tin: "123456789",
      full_name: "F",
      email: "a@b.ru",
      phone: "+7 123",
      consent: true,
      key: "1",
    };
    expect(RegistrationRequestSchema.safeParse(body).success).toBe(true);
    expect(RegistrationRequestSchema.safeParse({ ...body, consent: false }).success).toBe(false);
    expect(RegistrationRequestSchema.safeParse({ ...body, email: "" }).success).toBe(false);
  });

  it("page the audit log by 2048 by default", () => {
    expect(WebActionsRequestSchema.parse({})).toEqual({ limit: LOG_PAGE_SIZE, offset: 0 });
  });
});
