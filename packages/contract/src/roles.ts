import { z } from "zod";

/** Role numbers of spec section 2: 1 superuser/root, 2 admin, 3 helper/assistant, 4 staff/operator. */
export const Role = { Superuser: 1, Admin: 2, Helper: 3, Operator: 4 } as const;
export type Role = (typeof Role)[keyof typeof Role];
export const RoleSchema = z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]);
export const ALL_ROLES: readonly Role[] = [1, 2, 3, 4];

/** Who may open a route: these roles, anyone signed in, or anyone at all. */
export type RouteAccess = readonly Role[] | "any" | "public";

/** Plugins enable features per user (spec section 1). */
export const PLUGINS = ["notification", "accounting", "keychain"] as const;
export type Plugin = (typeof PLUGINS)[number];
export const PluginSchema = z.enum(PLUGINS);

/** The root is the superuser whose username is `root`. */
export const ROOT_USERNAME = "root";

/** A role's label key in the user list. */
export type RoleLabelKey = "root" | "admin" | "offer" | "operator" | "anonymous";

const ROLE_LABEL_KEYS: Readonly<Record<Role, RoleLabelKey>> = {
  1: "root",
  2: "admin",
  3: "offer",
  4: "operator",
};

/** Role label keys of the user list (spec section 2): 1 root, 2 admin, 3 offer (junior), 4 operator, else Anonymous. */
export function roleLabelKey(role: number): RoleLabelKey {
  return Object.hasOwn(ROLE_LABEL_KEYS, role) ? ROLE_LABEL_KEYS[role as Role] : "anonymous";
}
