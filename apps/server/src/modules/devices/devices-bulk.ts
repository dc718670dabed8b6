import {
  BULK_DEVICES_MAX_LINES,
  type BulkLineResult,
  CreateDeviceSchema,
  type ErrorCode,
} from "@cellfleet/contract";
import { AppError } from "../../platform/errors";
import { parseCsvRows } from "../../platform/http/csv";

/** A bulk line that passed validation: what will be inserted. */
export interface BulkCandidate {
  line: number;
  ident: string;
  description: string;
  tags: string[];
  /** Uppercase, or null for none. */
  aes_key: string | null;
  /** Set by an admin (an import); none when absent. */
  position?: { latitude: number; longitude: number };
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

interface BulkFields {
  ident: string;
  description: string;
  tags: string[];
  key: string;
}

/** Tags of one cell, separated by `;`. */
export function splitTags(text: string): string[] {
  return text
    .split(";")
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

/**
 * A headerless row: ident, description, tags (separated by `;`), key. With more than four fields
 * (a pasted line with unquoted commas) the extra ones belong to the description.
 */
function fieldsByPosition(fields: string[]): BulkFields {
  const [ident = "", description = "", tagText = "", key = ""] = fields;
  if (fields.length > 4) {
    return {
      ident,
      description: fields.slice(1, -2).join(", "),
      tags: splitTags(fields.at(-2) ?? ""),
      key: fields.at(-1) ?? "",
    };
  }
  return { ident, description, tags: splitTags(tagText), key };
}

/** The columns a header row names (the device export's among them); others are ignored. */
function columnsOfHeader(header: string[]): (fields: string[]) => BulkFields {
  const index = (...names: string[]) => header.findIndex((name) => names.includes(name.toLowerCase()));
  const [ident, description, tags, key] = [
    index("ident"),
    index("description"),
    index("tags"),
    index("key", "aes_key"),
  ];
  const at = (fields: string[], column: number) => (column >= 0 ? (fields[column] ?? "") : "");
  return (fields) => ({
    ident: at(fields, ident),
    description: at(fields, description),
    tags: splitTags(at(fields, tags)),
    key: at(fields, key),
  });
}

/**
 * Parses pasted text or CSV (the platform's CSV reader: quoted fields as the device export writes
 * them), one device a row: `ident[,description[,tag;tag[,key]]]`. Blank lines and `#` comments are
 * skipped; a first row starting with `ident` is a header, whose named columns are read (so the
 * device export imports as it is). Each row is validated like POST /api/devices/new; an ident
 * repeated in the text is refused from its second row on.
 */
export function parseBulkDevices(text: string): ParsedBulk {
  const rows = parseCsvRows(text);
  const candidates: BulkCandidate[] = [];
  const refused: BulkLineResult[] = [];
  const seen = new Set<string>();
  let read = fieldsByPosition;
  if (rows[0] && rows[0].fields[0]?.toLowerCase() === "ident")
    read = columnsOfHeader(rows.shift()?.fields ?? []);
  if (rows.length > BULK_DEVICES_MAX_LINES) {
    throw new AppError("BAD_REQUEST", `At most ${BULK_DEVICES_MAX_LINES} devices at once`);
  }
  for (const row of rows) {
    const line = row.line;
    const fields = read(row.fields);
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
      continue;
    }
    const device = parsed.data;
    if (seen.has(device.ident)) {
      refused.push({
        line,
        ident: device.ident,
        result: "DEVICE_ALREADY_EXIST",
        reason: "repeated in the list",
      });
      continue;
    }
    seen.add(device.ident);
    candidates.push({
      line,
      ident: device.ident,
      description: device.description,
      tags: device.tags,
      aes_key: device.aes_key === "" ? null : device.aes_key.toUpperCase(),
    });
  }
  return { candidates, refused };
}
