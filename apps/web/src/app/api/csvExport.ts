import { CSV_EXPORTS, type CsvExportRoute, type CsvExportSection, csvExportPath } from "@cellfleet/contract";
import { apiDownload } from "./http";

/**
 * Downloads a list's CSV export (spec section 7's `EXPORT /api/{section}`, served as
 * `POST {path}/export`, ADR 024) with the list's filters, saved as the section's file name.
 */
export function downloadCsvExport(section: CsvExportSection, body: object = {}): Promise<void> {
  // csvExportPath answers `{path}/export` for the section's path, which is what CsvExportRoute names.
  const route = `POST ${csvExportPath(section)}` as CsvExportRoute;
  return apiDownload(route, CSV_EXPORTS[section].filename, { body: { ...body } });
}
