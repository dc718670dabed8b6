import { z } from "zod";
import { HexKeySchema } from "./validators/textSchemas";

// Licences (spec sections 2, 3, 4 and 7; docs/adr/022-licences.md). The vendor's licence service
// (apps/license-service) signs a licence document with Ed25519; the console verifies it offline
// with the vendor's public key. Both sides build the signed bytes with `licensePayloadText`, so
// the format lives here once.

/** What the vendor's service says of a key for one installation. */
export const LICENSE_DOCUMENT_STATUSES = [
  "active",
  "banned",
  "expired",
  "unknown",
  "fingerprint_mismatch",
] as const;
/** A licence document's status as the service signed it. */
export type LicenseDocumentStatus = (typeof LICENSE_DOCUMENT_STATUSES)[number];

/** The signed part of a licence: every field the console relies on. */
export const LicensePayloadSchema = z.object({
  v: z.literal(1),
  key: z.string().regex(/^[0-9a-f]{64}$/),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
  status: z.enum(LICENSE_DOCUMENT_STATUSES),
  /** ISO times; null when the key has no period (unknown, another installation's). */
  validFrom: z.iso.datetime().nullable(),
  validUntil: z.iso.datetime().nullable(),
  /** Routers the licence allows; 0 unless active. */
  deviceCount: z.number().int().min(0).max(10_000_000),
  issuedAt: z.iso.datetime(),
});
export type LicensePayload = z.infer<typeof LicensePayloadSchema>;

/** A licence document: what the service answers and what a licence file holds. */
export const LicenseDocumentSchema = z.object({
  payload: LicensePayloadSchema,
  /** Ed25519 signature of `licensePayloadText(payload)`, base64. */
  signature: z.string().min(1).max(200),
});
export type LicenseDocument = z.infer<typeof LicenseDocumentSchema>;

/**
 * The exact text that is signed: the payload's fields in a fixed order, as JSON. Signing a fixed
 * serialisation (not whatever JSON.stringify gives a parsed object) keeps both sides byte-equal.
 */
export function licensePayloadText(payload: LicensePayload): string {
  return JSON.stringify([
    payload.v,
    payload.key,
    payload.fingerprint,
    payload.status,
    payload.validFrom,
    payload.validUntil,
    payload.deviceCount,
    payload.issuedAt,
  ]);
}

/** The activation request the console sends to `LICENSE_SERVER_URL` + `/v1/activate`. */
export const LicenseActivationRequestSchema = z.object({
  key: z.string().regex(/^[0-9a-f]{64}$/),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
});
export type LicenseActivationRequest = z.infer<typeof LicenseActivationRequestSchema>;

/**
 * Why the last attempt did not give a valid licence (null: it did). The web shows a critical
 * message from it (spec §8: 'a critical message from the error code').
 */
export const LICENSE_ERRORS = [
  "unreachable",
  "server_error",
  "not_configured",
  "signature_invalid",
  "answer_invalid",
  "unknown_key",
  "fingerprint_mismatch",
  "banned",
  "expired",
] as const;
export type LicenseError = (typeof LICENSE_ERRORS)[number];

/** Status codes of spec §4 that the console gives (anything else the web shows as Error). */
export const LICENSE_STATUS = {
  pending: 0,
  activated: 1,
  ready: 2,
  serverError: 25,
  /** A key the vendor does not know, or a licence for another installation. */
  error: 240,
  /** An answer whose signature did not verify, and no valid licence is held. */
  invalid: 241,
  banned: 230,
  expired: 254,
} as const;

/** One licence as the list shows it (spec §3). */
export const LicenseSchema = z.object({
  _id: z.string(),
  /** The key shortened for display (the first 8 and last 4 characters). */
  license_id: z.string(),
  status: z.number().int(),
  /** The last attempt's failure, shown beside the status (the licence held stays in force). */
  error: z.enum(LICENSE_ERRORS).nullable(),
  /** When the last valid licence was received. */
  update_time: z.string().nullable(),
  /** When the console last asked (or was given a file). */
  check_time: z.string().nullable(),
  validFromDate: z.string().nullable(),
  validUpToDate: z.string().nullable(),
  activation_date: z.string().nullable(),
  /** The licence held is past its period. */
  expire: z.boolean(),
  /** Routers the licence allows (0 unless in force or pending activation). */
  devices: z.number().int(),
  /** An activation or refresh is queued or running. */
  refreshing: z.boolean(),
});
export type License = z.infer<typeof LicenseSchema>;

/** The installation's device allowance: `limit` null means no licence limits it (ADR 022). */
export const LicenseUsageSchema = z.object({
  used: z.number().int(),
  limit: z.number().int().nullable(),
  licensed: z.boolean(),
});
export type LicenseUsage = z.infer<typeof LicenseUsageSchema>;

/** POST /api/licenses: the list, the device usage and this installation's fingerprint. */
export const LicensesAnswerSchema = z.object({
  items: z.array(LicenseSchema),
  usage: LicenseUsageSchema,
});
export type LicensesAnswer = z.infer<typeof LicensesAnswerSchema>;

/** POST /api/licenses/new: a key of 64 hexadecimal characters. */
export const AddLicenseRequestSchema = z.object({ key: HexKeySchema, token: z.string().optional() });
export type AddLicenseRequest = z.infer<typeof AddLicenseRequestSchema>;

/** POST /api/licenses/update: re-ask the service for one licence, or for all when no id is given. */
export const RefreshLicensesRequestSchema = z
  .object({ id: z.string().min(1).max(64).optional(), token: z.string().optional() })
  .nullish();

/** POST /api/licenses/upload: a licence file's text (offline activation). */
export const UploadLicenseRequestSchema = z.object({
  document: z.string().min(2).max(16_384),
  token: z.string().optional(),
});

/** POST /api/licenses/fingerprint: this installation's digital print. */
export const LicenseFingerprintAnswerSchema = z.object({ fingerprint: z.string() });

/** One licence, after adding, uploading or refreshing it. */
export const LicenseAnswerSchema = z.object({ item: LicenseSchema });

/** POST /api/licenses/update: the licences after the refresh was queued. */
export const RefreshLicensesAnswerSchema = z.object({ items: z.array(LicenseSchema) });
