import { CSV_EXPORT_CHUNK, LICENSE_STATUS } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { toLicenseDto } from "./licences.mapper";
import { licencesRepo } from "./licences.repo";

/** Columns of licenses.csv: the list's columns (spec section 2, licence list) and the period. */
export const LICENSE_CSV_COLUMNS = [
  "license_id",
  "status",
  "error",
  "update_time",
  "valid_from",
  "valid_until",
  "activation_date",
  "devices",
] as const;

const STATUS_NAMES = new Map<number, string>(
  Object.entries(LICENSE_STATUS).map(([name, code]) => [code, name]),
);

/** POST /api/licenses/export: the installation's licences as the list shows them (superusers). */
export async function* exportLicensesRows(ctx: AppContext): AsyncGenerator<CsvCell[][]> {
  const repo = licencesRepo(ctx.db);
  const now = ctx.now();
  const pages = keysetPages(
    (after: string | null, limit) => repo.listLicensesAfter(after, limit),
    (row) => row.id,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows
      .map((row) => toLicenseDto(row, now))
      .map((license) => [
        license.license_id,
        STATUS_NAMES.get(license.status) ?? String(license.status),
        license.error,
        license.update_time,
        license.validFromDate,
        license.validUpToDate,
        license.activation_date,
        license.devices,
      ]);
  }
}
