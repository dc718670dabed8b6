import { z } from "zod";
import { RecordIdSchema } from "./files";

// Software (firmware) rules of spec sections 2, 3 and 7: root names a URL and the router models it
// fits; the server fetches the file into storage and reports the status of spec section 4.

/** Firmware statuses the server sets itself (spec section 4); an HTTP refusal keeps its code. */
export const FIRMWARE_STATUS = { pending: 0, accepted: 1, ready: 2, error: 240 } as const;

/** The models a rule may name, and the longest name of one. */
export const FIRMWARE_MAX_MODELS = 100;
export const FIRMWARE_MODEL_MAX_LENGTH = 64;

/** An http(s) URL a server can fetch. */
const FirmwareUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" }));

/** The body of POST /api/software/new and /api/software/{id}/save. */
export const SaveSoftwareRuleSchema = z.object({
  name: z.string().trim().min(1).max(100),
  url: FirmwareUrlSchema,
  models: z
    .array(z.string().trim().min(1).max(FIRMWARE_MODEL_MAX_LENGTH))
    .min(1)
    .max(FIRMWARE_MAX_MODELS)
    .transform((models) => [...new Set(models)]),
});
export type SaveSoftwareRule = z.input<typeof SaveSoftwareRuleSchema>;
export type SaveSoftwareRuleInput = z.output<typeof SaveSoftwareRuleSchema>;

/** The stored firmware file of a rule (spec section 3: _id, filename, metadata.file_type). */
export const SoftwareFileSchema = z.object({
  _id: z.string(),
  filename: z.string(),
  size: z.number().int().min(0),
  sha256: z.string(),
  metadata: z.object({ file_type: z.literal("firmware") }),
});
export type SoftwareFile = z.infer<typeof SoftwareFileSchema>;

/** A software rule as the API answers it. Dates in ms since the epoch. */
export const SoftwareRuleSchema = z.object({
  _id: z.string(),
  name: z.string(),
  url: z.string(),
  models: z.array(z.string()),
  /** Spec section 4: 0 Pending, 1 Accepted, 2 Ready, 240 Error, 415/422 Invalid resource, else HTTP Error n. */
  status: z.number().int(),
  /** Why the last fetch failed (a refused connection, a timeout…); null when it did not. */
  error: z.string().nullable(),
  /** When the file was last fetched whole; null before that. */
  sync_time: z.number().nullable(),
  /** From the URL (spec section 3); null is shown "N/A". */
  series: z.string().nullable(),
  file: SoftwareFileSchema.nullable(),
  create_time: z.number(),
  update_time: z.number(),
});
export type SoftwareRule = z.infer<typeof SoftwareRuleSchema>;

/** The answer of POST /api/firmwares: every rule, newest update first. */
export const SoftwareRulesAnswerSchema = z.object({ items: z.array(SoftwareRuleSchema) });
export type SoftwareRulesAnswer = z.infer<typeof SoftwareRulesAnswerSchema>;

export const SoftwareRuleIdSchema = RecordIdSchema;

/**
 * Whether a rule matches a list search (spec section 2: name, url, series, sync time, status,
 * models). The caller gives the texts it shows for the status and the sync time, so the search
 * finds what the person sees in their language.
 */
export function softwareRuleMatches(
  rule: Pick<SoftwareRule, "name" | "url" | "series" | "models">,
  search: string,
  shown: { status: string; syncTime: string },
): boolean {
  const needle = search.trim().toLowerCase();
  if (needle === "") return true;
  const haystack = [rule.name, rule.url, rule.series ?? "N/A", shown.syncTime, shown.status, ...rule.models];
  return haystack.some((text) => text.toLowerCase().includes(needle));
}

/**
 * The firmware version a rule's file carries, as routers report it (device protocol: `firmware`,
 * e.g. RUT9_R_00.07.08.2): the file name without its extension (.bin, .img…).
 */
export function firmwareVersionFromFilename(filename: string): string {
  return filename.replace(/\.(bin|img|npk|trx|itb|tar|gz|zip|fw)$/i, "").trim();
}
