import {
  BULK_DEVICES_MAX_LINES,
  type BulkLineResult,
  CreateDeviceSchema,
  type ErrorCode,
} from "@cellfleet/contract";
import { AppError } from "../../platform/errors";

/** A bulk line that passed validation: what will be inserted. */
export interface BulkCandidate {
  line: number;
  ident: string;
  description: string;
  tags: string[];
  /** Uppercase, or null for none. */
  aes_key: string | null;
}

/** The outcome of parsing bulk text: valid candidates and the lines already refused. */
export interface ParsedBulk {
  candidates: BulkCandidate[];
  refused: BulkLineResult[];
}

/** The error code of a create-device field that failed validation. */
export function codeForDeviceField(field: string | undefined): ErrorCode {
  if (field === "ident") return "BAD_IDENT";
  if (field === "tags") return "TAGS_MUST_BE_ARRAY";
  return "BAD_REQUEST";
}

/**
 * Splits one line at commas: ident, description, tags (separated by `;`), key. With more than
 * four fields the extra commas belong to the description.
 */
function splitLine(text: string): { ident: string; description: string; tags: string[]; key: string } {
  const fields = text.split(",").map((field) => field.trim());
  const [ident = "", description = "", tagText = "", key = ""] = fields;
  const tags = tagText
    .split(";")
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
  // A description may itself hold commas: everything between the ident and the last two fields.
  if (fields.length > 4) {
    return {
      ident,
      description: fields.slice(1, -2).join(", "),
      tags: (fields.at(-2) ?? "")
        .split(";")
        .map((tag) => tag.trim())
        .filter((tag) => tag.length > 0),
      key: fields.at(-1) ?? "",
    };
  }
  return { ident, description, tags, key };
}

/**
 * Parses pasted text or CSV, one device a line: `ident[,description[,tag;tag[,key]]]`. Blank lines
 * and `#` comments are skipped; a first line starting with `ident,` is taken as a CSV header.
 * Each line is validated like POST /api/devices/new; an ident repeated in the text is refused
 * from its second line on.
 */
export function parseBulkDevices(text: string): ParsedBulk {
  const lines = text.split(/\r?\n/);
  const candidates: BulkCandidate[] = [];
  const refused: BulkLineResult[] = [];
  const seen = new Set<string>();
  let counted = 0;
  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) return;
    if (index === 0 && /^ident\s*(,|$)/i.test(trimmed)) return;
    counted++;
    if (counted > BULK_DEVICES_MAX_LINES) {
      throw new AppError("BAD_REQUEST", `At most ${BULK_DEVICES_MAX_LINES} devices at once`);
    }
    const fields = splitLine(trimmed);
    const parsed = CreateDeviceSchema.safeParse({
      ident: fields.ident,
      description: fields.description,
      tags: fields.tags,
      aes_key: fields.key,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      refused.push({
        line,
        ident: fields.ident,
        result: codeForDeviceField(issue?.path[0]?.toString()),
        reason: issue?.message,
      });
      return;
    }
    const device = parsed.data;
    if (seen.has(device.ident)) {
      refused.push({
        line,
        ident: device.ident,
        result: "DEVICE_ALREADY_EXIST",
        reason: "repeated in the list",
      });
      return;
    }
    seen.add(device.ident);
    candidates.push({
      line,
      ident: device.ident,
      description: device.description,
      tags: device.tags,
      aes_key: device.aes_key === "" ? null : device.aes_key.toUpperCase(),
    });
  });
  return { candidates, refused };
}
