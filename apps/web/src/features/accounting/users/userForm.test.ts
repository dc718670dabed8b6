import type { Role } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { assignableRoles, checkUserPassword, fromUserForm, toUserForm, userFormMode } from "./userForm";

const person = (role: Role, _id: string) => ({ role, _id, is_junior: false, is_demo: false, plugins: [] });
const admin = person(2, "a");
const helper = person(3, "h");

describe("user page permissions (spec section 6)", () => {
  it("lets only superusers and admins add users", () => {
    expect(userFormMode(person(1, "s"), null)).toBe("full");
    expect(userFormMode(admin, null)).toBe("full");
    expect(userFormMode(helper, null)).toBe("readOnly");
  });

  it("lets a helper edit operators only, and itself only for the password", () => {
    expect(userFormMode(helper, { role: 4, _id: "o" })).toBe("full");
    expect(userFormMode(helper, { role: 3, _id: "x" })).toBe("readOnly");
    expect(userFormMode(helper, { role: 2, _id: "a" })).toBe("readOnly");
    expect(userFormMode(helper, { role: 3, _id: "h" })).toBe("selfPassword");
  });

  it("lets an operator change only its own password, and look at nobody else's form", () => {
    const operator = person(4, "o");
    expect(userFormMode(operator, { role: 4, _id: "o" })).toBe("selfPassword");
    expect(userFormMode(operator, { role: 4, _id: "x" })).toBe("readOnly");
    expect(userFormMode(operator, null)).toBe("readOnly");
  });

  it("lets an admin edit domain users but not superusers", () => {
    expect(userFormMode(admin, { role: 4, _id: "o" })).toBe("full");
    expect(userFormMode(admin, { role: 1, _id: "r" })).toBe("readOnly");
  });

  it("offers helpers only the operator role", () => {
    expect(assignableRoles(helper)).toEqual([4]);
    expect(assignableRoles({ ...helper, is_junior: true })).toEqual([4]);
    expect(assignableRoles(admin)).toEqual([2, 3, 4]);
    expect(assignableRoles(person(4, "o"))).toEqual([]);
  });
});

describe("user form body", () => {
  const shape = {
    isNew: true,
    hasRole: true,
    hasDomain: false,
    hasPolicy: true,
    hasPlugins: false,
    hasTagScope: false,
  };

  it("creates with the password and blank optionals as null", () => {
    const values = {
      ...toUserForm(null),
      username: " olga ",
      full_name: "Olga",
      role: 4 as const,
      password: "Secret-12",
    };
    expect(fromUserForm(values, shape, "full")).toEqual({
      username: "olga",
      full_name: "Olga",
      email: null,
      phone: null,
      role: 4,
      is_junior: false,
      policy_id: null,
      password: "Secret-12",
    });
  });

  it("leaves the password out of an edit unless one was typed, and sends blocked", () => {
    const values = {
      ...toUserForm(null),
      username: "olga",
      full_name: "Olga",
      role: 3 as const,
      is_junior: true,
    };
    const body = fromUserForm(values, { ...shape, isNew: false }, "full");
    expect(body).not.toHaveProperty("password");
    expect(body.blocked).toBe(false);
    expect(body.is_junior).toBe(true);
  });

  it("sends the tag scope of an assistant or operator for a viewer who may set it, never an admin's", () => {
    const values = { ...toUserForm(null), username: "olga", full_name: "Olga", tag_scope: ["north"] };
    const edit = { ...shape, isNew: false, hasTagScope: true };
    expect(fromUserForm({ ...values, role: 4 }, edit, "full").tag_scope).toEqual(["north"]);
    expect(fromUserForm({ ...values, role: 2 }, edit, "full")).not.toHaveProperty("tag_scope");
    expect(fromUserForm({ ...values, role: 4 }, { ...edit, hasTagScope: false }, "full")).not.toHaveProperty(
      "tag_scope",
    );
  });

  it("sends only the password for a helper's own record", () => {
    const values = { ...toUserForm(null), password: "Secret-12" };
    expect(fromUserForm(values, shape, "selfPassword")).toEqual({ password: "Secret-12" });
  });

  it("judges passwords by the policy, optional when editing", () => {
    expect(checkUserPassword("", { isRequired: false, rules: null, isAdmin: false })).toBeNull();
    expect(checkUserPassword("", { isRequired: true, rules: null, isAdmin: false })).toBe("required");
    expect(checkUserPassword("short", { isRequired: true, rules: null, isAdmin: false })).toBe(
      "PASSWORD_INVALID_MIN_LENGTH",
    );
  });
});
