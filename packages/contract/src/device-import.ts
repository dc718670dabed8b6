import { z } from "zod";

// Routers from a spreadsheet (issue 31, ADR 042): a dry run says per row what would happen, and
// applying the same file does exactly that in one transaction, or nothing.

/** Most data rows of one import file. */
export const DEVICE_IMPORT_MAX_ROWS = 20_000;

/** The key cell that asks the server to make a new key (answered once, after the apply). */
export const DEVICE_IMPORT_GENERATE_KEY = "generate";

/** What a row does: a new router, a change to one of the domain's, nothing, or refused. */
export const DEVICE_IMPORT_OUTCOMES = ["create", "change", "unchanged", "refuse"] as const;

/** The fields a changed row changes. */
export const DEVICE_IMPORT_FIELDS = ["description", "tags", "key", "position"] as const;

/**
 * Why a row is refused, beside its error code: a validation key of the ident, tags, description or
 * key (identChars, tagTooShort, keyInvalid …), or one of these: `repeated` (the ident is on an
 * earlier row of the file), `otherDomain` (another domain holds the ident), `position` (not
 * `lat,lng` in degrees), `domainLimit` and `licenceLimit` (no room left for it).
 */
export const DEVICE_IMPORT_REASONS = [
  "repeated",
  "otherDomain",
  "position",
  "domainLimit",
  "licenceLimit",
] as const;

/** One row of the file and what it does. */
export const DeviceImportRowSchema = z.object({
  /** The row's number in the file: the CSV line or the sheet row, the header counted. */
  line: z.number().int(),
  ident: z.string(),
  outcome: z.enum(DEVICE_IMPORT_OUTCOMES),
  /** The fields a `change` row changes; empty otherwise. */
  fields: z.array(z.enum(DEVICE_IMPORT_FIELDS)),
  /** A refused row's error code (spec section 8): BAD_IDENT, BAD_REQUEST, TAGS_MUST_BE_ARRAY, DEVICE_ALREADY_EXIST, DEVICE_COUNT_LIMITED. */
  code: z.string().optional(),
  /** A refused row's reason (see DEVICE_IMPORT_REASONS). */
  reason: z.string().optional(),
});
/** One row of the file and what it does. */
export type DeviceImportRow = z.infer<typeof DeviceImportRowSchema>;

/**
 * POST /api/devices/import/check (admins; multipart field `file`, .csv or .xlsx) → what the file
 * would do. A header row names the columns: ident, key (64 hex, `generate`, or empty), tags
 * (separated by `;`), description, position (`lat,lng`, or columns latitude and longitude). An
 * empty cell leaves a router's field as it is. `plan` fingerprints the rows' outcomes: applying
 * answers BAD_REQUEST (409) when the file or the fleet no longer gives the same plan.
 */
export const DeviceImportPlanSchema = z.object({
  plan: z.string(),
  create: z.number().int(),
  change: z.number().int(),
  unchanged: z.number().int(),
  refuse: z.number().int(),
  rows: z.array(DeviceImportRowSchema),
});
/** What an import file would do. */
export type DeviceImportPlan = z.infer<typeof DeviceImportPlanSchema>;

/**
 * POST /api/devices/import/{plan} (admins; the same file) → what was done, with the keys made for
 * `generate` cells: shown this once, never stored anywhere else than in the routers.
 */
export const DeviceImportResultSchema = DeviceImportPlanSchema.extend({
  /** How many routers were created (the audit log's count). */
  created: z.number().int(),
  keys: z.array(z.object({ ident: z.string(), key: z.string() })),
  /** The same keys as a CSV file (`ident,key`), for the console to offer as a download. */
  keys_csv: z.string(),
});
/** What an import did. */
export type DeviceImportResult = z.infer<typeof DeviceImportResultSchema>;
