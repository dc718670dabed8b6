import { CSV_EXPORT_CHUNK } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { toSoftwareRule } from "./firmware.mapper";
import { firmwareRepo } from "./firmware.repo";

/** Columns of firmwares.csv: the software list's columns (spec section 2) and the file's checksum. */
export const SOFTWARE_CSV_COLUMNS = [
  "name",
  "url",
  "status",
  "error",
  "series",
  "models",
  "file",
  "size",
  "sha256",
  "sync_time",
  "update_time",
] as const;

const isoOrEmpty = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString());

/** POST /api/firmwares/export: the installation's software rules as the list shows them (root). */
export async function* exportSoftwareRows(ctx: AppContext): AsyncGenerator<CsvCell[][]> {
  const repo = firmwareRepo(ctx.db);
  const pages = keysetPages(
    (after: string | null, limit) => repo.listRulesAfter(after, limit),
    (row) => row.id,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows
      .map(toSoftwareRule)
      .map((rule) => [
        rule.name,
        rule.url,
        rule.status,
        rule.error,
        rule.series,
        rule.models.join(" "),
        rule.file?.filename ?? "",
        rule.file?.size ?? "",
        rule.file?.sha256 ?? "",
        isoOrEmpty(rule.sync_time),
        isoOrEmpty(rule.update_time),
      ]);
  }
}
