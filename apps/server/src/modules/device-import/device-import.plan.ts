import { createHash } from "node:crypto";
import {
  CreateDeviceSchema,
  DEVICE_IMPORT_GENERATE_KEY,
  type DeviceImportPlan,
  type DeviceImportRow,
} from "@cellfleet/contract";
import type { DeviceImportTarget } from "../devices/devices.repo";
import { codeForDeviceField, splitTags } from "../devices/devices-bulk";
import type { DeviceRoom } from "../devices/devices-room";
import type { ImportFileRow } from "./device-import.file";

// What an import file does to the domain's routers: a pure function of the file's rows and what the
// database holds, so the dry run and the apply (inside its transaction) reach the same plan.

/** A router's position in degrees. */
export interface ImportPosition {
  latitude: number;
  longitude: number;
}

/** A valid row's values; undefined fields were empty cells, which leave a router's field alone. */
export interface ImportValues {
  line: number;
  ident: string;
  description?: string;
  tags?: string[];
  /** Uppercase hex, or `generate`. */
  key?: string;
  position?: ImportPosition;
}

/** A row that changes one of the domain's routers. */
export interface ImportChange {
  values: ImportValues;
  target: DeviceImportTarget;
  fields: DeviceImportRow["fields"];
}

/** The plan's answer and the work it stands for. */
export interface ImportPlan {
  answer: DeviceImportPlan;
  creates: ImportValues[];
  changes: ImportChange[];
}

/** What the database holds about the file's idents, and the room for more routers. */
export interface ImportFacts {
  /** The domain's routers with the file's idents, by ident. */
  targets: ReadonlyMap<string, DeviceImportTarget>;
  /** The file's idents held anywhere (this domain or another). */
  taken: ReadonlySet<string>;
  room: DeviceRoom;
}

const COLUMN_NAMES = {
  ident: ["ident"],
  key: ["key", "aes_key"],
  tags: ["tags"],
  description: ["description"],
  position: ["position"],
  latitude: ["latitude", "lat"],
  longitude: ["longitude", "lng", "lon"],
} as const;
type Column = keyof typeof COLUMN_NAMES;
type ColumnIndex = Record<Column, number>;

/** Without a header row the columns are in the issue's order. */
const BY_POSITION: ColumnIndex = {
  ident: 0,
  key: 1,
  tags: 2,
  description: 3,
  position: 4,
  latitude: -1,
  longitude: -1,
};

function columnsOfHeader(header: readonly string[]): ColumnIndex {
  const lower = header.map((name) => name.toLowerCase());
  const index = (names: readonly string[]) => lower.findIndex((name) => names.includes(name));
  return Object.fromEntries(
    Object.entries(COLUMN_NAMES).map(([column, names]) => [column, index(names)]),
  ) as ColumnIndex;
}

/** `lat,lng` (or `lat lng`, `lat;lng`) in degrees; undefined when it is not one. */
export function parsePosition(text: string): ImportPosition | undefined {
  const parts = text.split(/[,;\s]+/).filter((part) => part !== "");
  if (parts.length !== 2) return undefined;
  const [latitude, longitude] = parts.map(Number) as [number, number];
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return undefined;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return undefined;
  return { latitude, longitude };
}

type Checked = { values: ImportValues } | { refused: DeviceImportRow };

function refusal(line: number, ident: string, code: string, reason?: string): { refused: DeviceImportRow } {
  return { refused: { line, ident, outcome: "refuse", fields: [], code, ...(reason ? { reason } : {}) } };
}

/** A row validated as POST /api/devices/new validates a router, plus its position. */
function checkRow(row: ImportFileRow, columns: ColumnIndex): Checked {
  const cell = (column: Column) => (columns[column] >= 0 ? (row.fields[columns[column]] ?? "") : "");
  const ident = cell("ident");
  const keyText = cell("key");
  const isGenerated = keyText.toLowerCase() === DEVICE_IMPORT_GENERATE_KEY;
  const tagText = cell("tags");
  const description = cell("description");
  const parsed = CreateDeviceSchema.safeParse({
    ident,
    description,
    tags: splitTags(tagText),
    aes_key: isGenerated ? "" : keyText,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return refusal(row.line, ident, codeForDeviceField(issue?.path[0]?.toString()), issue?.message);
  }
  const positionText = cell("position") || [cell("latitude"), cell("longitude")].filter(Boolean).join(",");
  const position = positionText === "" ? undefined : parsePosition(positionText);
  if (positionText !== "" && !position)
    return refusal(row.line, parsed.data.ident, "BAD_REQUEST", "position");
  const device = parsed.data;
  return {
    values: {
      line: row.line,
      ident: device.ident,
      ...(description !== "" && { description: device.description }),
      ...(tagText !== "" && { tags: device.tags }),
      ...(keyText !== "" && { key: isGenerated ? DEVICE_IMPORT_GENERATE_KEY : device.aes_key.toUpperCase() }),
      ...(position && { position }),
    },
  };
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");

/** The fields a row changes in one of the domain's routers. */
function changedFields(values: ImportValues, target: DeviceImportTarget): DeviceImportRow["fields"] {
  const fields: DeviceImportRow["fields"] = [];
  if (values.description !== undefined && values.description !== target.description)
    fields.push("description");
  if (values.tags !== undefined && JSON.stringify(values.tags) !== JSON.stringify(target.tags))
    fields.push("tags");
  if (
    values.key === DEVICE_IMPORT_GENERATE_KEY ||
    (values.key !== undefined && md5(values.key) !== target.key_md5)
  )
    fields.push("key");
  const { position } = values;
  if (position && (position.latitude !== target.latitude || position.longitude !== target.longitude))
    fields.push("position");
  return fields;
}

/** The file's idents (header left out) that the plan asks the database about. */
export function identsOfRows(rows: readonly ImportFileRow[]): string[] {
  const { body, columns } = splitHeader(rows);
  return [...new Set(body.map((row) => row.fields[columns.ident] ?? "").filter((ident) => ident !== ""))];
}

function splitHeader(rows: readonly ImportFileRow[]): {
  body: readonly ImportFileRow[];
  columns: ColumnIndex;
} {
  const first = rows[0];
  if (first?.fields.some((name) => name.toLowerCase() === "ident")) {
    return { body: rows.slice(1), columns: columnsOfHeader(first.fields) };
  }
  return { body: rows, columns: BY_POSITION };
}

/** Identifies the plan: the rows' outcomes and values, so another file or fleet gives another. */
function fingerprint(
  rows: readonly DeviceImportRow[],
  creates: readonly ImportValues[],
  changes: readonly ImportChange[],
): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify(rows));
  hash.update(JSON.stringify(creates));
  hash.update(JSON.stringify(changes.map((change) => [change.target.id, change.values])));
  return hash.digest("hex").slice(0, 32);
}

/**
 * The plan of an import: per row created, changed, unchanged or refused (invalid field, repeated
 * in the file, held by another domain, beyond the domain's or the licences' room, in file order).
 */
export function planImport(rows: readonly ImportFileRow[], facts: ImportFacts): ImportPlan {
  const { body, columns } = splitHeader(rows);
  const answerRows: DeviceImportRow[] = [];
  const creates: ImportValues[] = [];
  const changes: ImportChange[] = [];
  const seen = new Set<string>();
  for (const row of body) {
    const checked = checkRow(row, columns);
    if ("refused" in checked) {
      answerRows.push(checked.refused);
      continue;
    }
    const { values } = checked;
    const { line, ident } = values;
    if (seen.has(ident)) {
      answerRows.push(refusal(line, ident, "DEVICE_ALREADY_EXIST", "repeated").refused);
      continue;
    }
    seen.add(ident);
    const target = facts.targets.get(ident);
    if (target) {
      const fields = changedFields(values, target);
      if (fields.length > 0) changes.push({ values, target, fields });
      answerRows.push({ line, ident, outcome: fields.length > 0 ? "change" : "unchanged", fields });
    } else if (facts.taken.has(ident)) {
      answerRows.push(refusal(line, ident, "DEVICE_ALREADY_EXIST", "otherDomain").refused);
    } else if (facts.room.domain !== null && creates.length >= facts.room.domain) {
      answerRows.push(refusal(line, ident, "DEVICE_COUNT_LIMITED", "domainLimit").refused);
    } else if (facts.room.licence !== null && creates.length >= facts.room.licence) {
      answerRows.push(refusal(line, ident, "DEVICE_COUNT_LIMITED", "licenceLimit").refused);
    } else {
      creates.push(values);
      answerRows.push({ line, ident, outcome: "create", fields: [] });
    }
  }
  const count = (outcome: DeviceImportRow["outcome"]) =>
    answerRows.filter((row) => row.outcome === outcome).length;
  return {
    answer: {
      plan: fingerprint(answerRows, creates, changes),
      create: count("create"),
      change: count("change"),
      unchanged: count("unchanged"),
      refuse: count("refuse"),
      rows: answerRows,
    },
    creates,
    changes,
  };
}
