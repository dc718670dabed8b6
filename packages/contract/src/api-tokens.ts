import { z } from "zod";
import { DeviceTagsSchema } from "./devices";
import {
  decide,
  PERMISSION_ACTIONS,
  PERMISSIONS,
  type PermissionAction,
  type PermissionRule,
  type PermissionSubject,
} from "./permissions";

// Personal API tokens (issue 30, docs/adr/040-api-tokens.md): a person's key for scripts and the
// command-line tool, sent as `Authorization: Bearer <token>`, carrying a subset of what the person
// may do. The table decides a token's call like a person's, with the token's `grants` beside the role.

/** Every API token starts so, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = "cft_";
/** A token lives at most this many days. */
export const API_TOKEN_MAX_DAYS = 366;
/** Networks on one token's allow-list, at most. */
export const API_TOKEN_MAX_NETWORKS = 20;
/** Tokens one person may hold (not revoked, not expired). */
export const API_TOKEN_MAX_PER_USER = 50;

/** Whether an action may ever be carried by a token (the table's `byToken: false` says never). */
export function isTokenAction(action: PermissionAction): boolean {
  return (PERMISSIONS[action] as PermissionRule).byToken !== false;
}

/**
 * The actions a person may give a token: what the table lets them do now, less what no token may
 * carry. A token's call is decided against the person's current role too, so one that loses a
 * permission loses it on its tokens at once.
 */
export function apiTokenActionsFor(subject: PermissionSubject): PermissionAction[] {
  const person: PermissionSubject = { ...subject, grants: undefined };
  return PERMISSION_ACTIONS.filter((action) => isTokenAction(action) && decide(person, action) !== "deny");
}

/** An allowed network: an IPv4 or IPv6 address with its prefix length (CIDR). */
export const CidrSchema = z.union([z.cidrv4(), z.cidrv6()]);

/** POST /api/tokens/new: a new token of the caller's. */
export const CreateApiTokenSchema = z.object({
  name: z.string().trim().min(1).max(64),
  /** When it stops working, ms since the epoch: in the future, within API_TOKEN_MAX_DAYS. */
  expires_at: z.number().int().positive(),
  permissions: z.array(z.string().min(1).max(64)).min(1).max(PERMISSION_ACTIONS.length),
  /** Networks the token may be used from; empty: anywhere. */
  allowed_ips: z.array(CidrSchema).max(API_TOKEN_MAX_NETWORKS).default([]),
  /** Only routers carrying one of these tags, within the person's own (ADR 041); empty: no narrowing. */
  tag_scope: DeviceTagsSchema.default([]),
});
export type CreateApiToken = z.input<typeof CreateApiTokenSchema>;

/** A token as lists show it: never the secret, which only the creation answer holds. */
export const ApiTokenSchema = z.object({
  _id: z.string(),
  name: z.string(),
  user_id: z.string(),
  username: z.string(),
  permissions: z.array(z.string()),
  allowed_ips: z.array(z.string()),
  tag_scope: z.array(z.string()),
  /** ms since the epoch. */
  create_time: z.number(),
  expires_at: z.number(),
  last_used_at: z.number().nullable(),
  last_used_ip: z.string().nullable(),
  revoked_at: z.number().nullable(),
});
export type ApiToken = z.infer<typeof ApiTokenSchema>;

/** The answer of creating a token: the secret, shown this once, and the token as lists show it. */
export const CreatedApiTokenSchema = z.object({ token: z.string(), item: ApiTokenSchema });
export type CreatedApiToken = z.infer<typeof CreatedApiTokenSchema>;

/** A list of tokens (own, or the domain's for its admins). */
export const ApiTokenListSchema = z.object({ items: z.array(ApiTokenSchema) });
export type ApiTokenList = z.infer<typeof ApiTokenListSchema>;

/** What the profile page offers: the actions the caller may put on a token. */
export const ApiTokenOptionsSchema = z.object({
  permissions: z.array(z.string()),
  max_days: z.number(),
});
export type ApiTokenOptions = z.infer<typeof ApiTokenOptionsSchema>;
