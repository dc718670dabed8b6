import { kindOf } from "./permission-subjects";
import type { Plugin, Role, RouteAccess } from "./roles";

// Facts about roles that follow from the permission table's kinds of people (spec section 6): which
// password rules apply, which plugins a new account gets, who has a domain, who may be a junior.

/** Superusers and admins follow the policy's admin password rules (admin min length, expiry). */
export function usesAdminPasswordRules(role: Role): boolean {
  const kind = kindOf({ role });
  return kind === "superuser" || kind === "admin";
}

/** The plugins a new account gets when none are chosen: all for superusers and admins, else notification. */
export function defaultPluginsFor(role: Role): Plugin[] {
  return usesAdminPasswordRules(role) ? ["notification", "accounting", "keychain"] : ["notification"];
}

/** Superusers belong to no domain; every other role to exactly one. */
export function hasNoDomain(role: Role): boolean {
  return kindOf({ role }) === "superuser";
}

/** Only a helper (role 3) can be a junior assistant. */
export function mayBeJunior(role: Role): boolean {
  return kindOf({ role }) === "assistant";
}

/** Whether a signed-in user of `role` may open a route with this access rule of the route table. */
export function canAccess(access: RouteAccess, role: Role | null): boolean {
  if (access === "public") return true;
  if (role === null) return false;
  if (access === "any") return true;
  return access.includes(role);
}
