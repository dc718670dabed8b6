import { z } from "zod";
import { DeviceTagsSchema } from "./devices";
import { isProtocolIdent } from "./protocol/topics";

// Zero-touch configurations and the adoption list (spec section 1; docs/device-protocol.md, "Zero-touch join";
// docs/adr/023-zero-touch.md). A router never created in the console joins with credentials derived
// from a configuration's secret; one that its configuration does not match waits for an admin.

/** The first field of a zero-touch user name: the scheme's version. */
export const ZERO_TOUCH_SCHEME = "zt1";
/** A configuration's public key id: 12 lowercase hex characters, named in the router's user name. */
export const ZERO_TOUCH_KEY_ID = /^[0-9a-f]{12}$/;
/**
 * Model, serial and IMEI as a router claims them: printable ASCII (0x20–0x7E, the space included, as
 * in "LtAP LTE6") without `:`, at most 64 characters.
 */
const CLAIM = /^[\x20-\x39\x3b-\x7e]{0,64}$/;

/** What a router claims in its zero-touch user name `zt1:{key_id}:{model}:{serial}:{imei}`. */
export interface ZeroTouchClaims {
  keyId: string;
  model: string;
  serial: string;
  imei: string;
}

/** Whether a user name is of the zero-touch form at all (it starts with `zt1:`). */
export function isZeroTouchUsername(username: string | undefined): username is string {
  return username?.startsWith(`${ZERO_TOUCH_SCHEME}:`) ?? false;
}

/** The claims of a zero-touch user name, or null when it is malformed (no serial and no IMEI too). */
export function parseZeroTouchUsername(username: string): ZeroTouchClaims | null {
  const parts = username.split(":");
  if (parts.length !== 5 || parts[0] !== ZERO_TOUCH_SCHEME) return null;
  const [, keyId = "", model = "", serial = "", imei = ""] = parts;
  if (!ZERO_TOUCH_KEY_ID.test(keyId)) return null;
  if (![model, serial, imei].every((claim) => CLAIM.test(claim))) return null;
  if (serial === "" && imei === "") return null;
  return { keyId, model, serial, imei };
}

/** The text a router's zero-touch password is the HMAC of (key: the configuration's 32-byte secret). */
export function zeroTouchPasswordMessage(ident: string, username: string): string {
  return `cellfleet/zt1/${ident}/${username}`;
}

/** The text whose HMAC under the secret is the router's own 64-hex key once it has joined. */
export function zeroTouchKeyMessage(ident: string): string {
  return `cellfleet/zt1/key/${ident}`;
}

/**
 * Orders two serials or IMEIs: the shorter first, then character by character (upper case). For
 * digit strings without leading zeros that is numeric order; for fixed-width serials (letters
 * included) it is the order they are printed in.
 */
export function compareIdentifiers(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  const x = a.toUpperCase();
  const y = b.toUpperCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

/** An inclusive range of serials or IMEIs. */
export const ZeroTouchRangeSchema = z
  .object({
    from: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z-]{1,64}$/, "INVALID_VALUE_TYPE"),
    to: z
      .string()
      .trim()
      .regex(/^[0-9A-Za-z-]{1,64}$/, "INVALID_VALUE_TYPE"),
  })
  .refine((range) => compareIdentifiers(range.from, range.to) <= 0, {
    message: "INVALID_VALUE_TYPE",
    path: ["to"],
  });
export type ZeroTouchRange = z.infer<typeof ZeroTouchRangeSchema>;

/** What a configuration matches on; an empty list does not restrict. */
export interface ZeroTouchCriteria {
  models: readonly string[];
  serial_ranges: readonly ZeroTouchRange[];
  imei_ranges: readonly ZeroTouchRange[];
}

function inRanges(value: string, ranges: readonly ZeroTouchRange[]): boolean {
  return ranges.some(
    (range) => compareIdentifiers(range.from, value) <= 0 && compareIdentifiers(value, range.to) <= 0,
  );
}

/**
 * Whether a router's claims match a configuration: every criterion the configuration sets must hold
 * (model among its models, case-insensitive; serial in one of its serial ranges; IMEI in one of its
 * IMEI ranges). A configuration that sets none matches every router signed with its secret.
 */
export function matchesZeroTouch(
  criteria: ZeroTouchCriteria,
  claims: Omit<ZeroTouchClaims, "keyId">,
): boolean {
  if (criteria.models.length > 0) {
    const model = claims.model.toLowerCase();
    if (!criteria.models.some((candidate) => candidate.toLowerCase() === model)) return false;
  }
  if (criteria.serial_ranges.length > 0 && !inRanges(claims.serial, criteria.serial_ranges)) return false;
  if (criteria.imei_ranges.length > 0 && !inRanges(claims.imei, criteria.imei_ranges)) return false;
  return true;
}

// --- API ---

const ModelSchema = z.string().trim().min(1).max(64).regex(CLAIM, "INVALID_VALUE_TYPE");

/** POST /api/zerotouch/config/new and /api/zerotouch/config/{id}/save: a configuration's fields. */
export const ZeroTouchConfigInputSchema = z.object({
  name: z.string().trim().min(1, "NOT_ENOUGH_PARAMS").max(100),
  active: z.boolean().default(true),
  tags: DeviceTagsSchema.default([]),
  /** A settings template of the domain (modules/scripts), sent as a settings command on joining. */
  template_id: z.string().min(1).max(64).nullable().default(null),
  models: z.array(ModelSchema).max(50).default([]),
  serial_ranges: z.array(ZeroTouchRangeSchema).max(50).default([]),
  imei_ranges: z.array(ZeroTouchRangeSchema).max(50).default([]),
});
export type ZeroTouchConfigInput = z.input<typeof ZeroTouchConfigInputSchema>;

/** A configuration as the console shows it; the secret is never in it. */
export const ZeroTouchConfigSchema = z.object({
  _id: z.string(),
  name: z.string(),
  active: z.boolean(),
  key_id: z.string(),
  tags: z.array(z.string()),
  template: z.object({ _id: z.string(), name: z.string() }).nullable(),
  models: z.array(z.string()),
  serial_ranges: z.array(z.object({ from: z.string(), to: z.string() })),
  imei_ranges: z.array(z.object({ from: z.string(), to: z.string() })),
  joined: z.number().int(),
  author: z.string(),
  create_time: z.number(),
  update_time: z.number(),
});
export type ZeroTouchConfig = z.infer<typeof ZeroTouchConfigSchema>;

/** The answer of a new configuration or a new secret: the secret (64 hex), shown this once. */
export const ZeroTouchSecretAnswerSchema = z.object({
  config: ZeroTouchConfigSchema,
  secret: z.string(),
});
export type ZeroTouchSecretAnswer = z.infer<typeof ZeroTouchSecretAnswerSchema>;

export const ZeroTouchConfigsAnswerSchema = z.object({ items: z.array(ZeroTouchConfigSchema) });

export const ADOPTION_STATUSES = ["pending", "rejected", "accepted"] as const;
export type AdoptionStatus = (typeof ADOPTION_STATUSES)[number];

/** A router waiting in the adoption list (or rejected, or accepted). */
export const AdoptionSchema = z.object({
  _id: z.string(),
  ident: z.string(),
  model: z.string(),
  serial: z.string(),
  imei: z.string(),
  status: z.enum(ADOPTION_STATUSES),
  config: z.object({ _id: z.string(), name: z.string() }).nullable(),
  address: z.string().nullable(),
  attempts: z.number().int(),
  first_seen: z.number(),
  last_seen: z.number(),
  decided_by: z.string().nullable(),
  decided_time: z.number().nullable(),
  device_id: z.string().nullable(),
});
export type Adoption = z.infer<typeof AdoptionSchema>;

export const AdoptionsRequestSchema = z.object({
  status: z.enum([...ADOPTION_STATUSES, "all"]).default("all"),
});
export const AdoptionsAnswerSchema = z.object({ items: z.array(AdoptionSchema) });

/** POST /api/zerotouch/adoption/{id}/accept: the tags it gets, and whether the template is sent. */
export const AcceptAdoptionSchema = z.object({
  tags: DeviceTagsSchema.default([]),
  apply_template: z.boolean().default(true),
});
export type AcceptAdoptionInput = z.input<typeof AcceptAdoptionSchema>;

/** Whether an ident may be a router's client id (the protocol's ident rule). */
export function isZeroTouchIdent(ident: string): boolean {
  return isProtocolIdent(ident);
}
