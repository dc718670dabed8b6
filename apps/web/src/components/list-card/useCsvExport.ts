import type { CsvExportSection } from "@cellfleet/contract";
import { useState } from "react";
import { downloadCsvExport } from "../../app/api/csvExport";

/** Which export a list card's download button runs, with the list's filters (paging is ignored). */
export interface CsvExportSpec {
  section: CsvExportSection;
  body?: object;
}

/**
 * The download action of a list card: runs the section's CSV export with the list's filters. The
 * transport shows a failure (spec section 8); the button is disabled while the file comes.
 */
export function useCsvExport(spec: CsvExportSpec | undefined) {
  const [isDownloading, setDownloading] = useState(false);
  async function download(current: CsvExportSpec) {
    setDownloading(true);
    try {
      await downloadCsvExport(current.section, current.body);
    } catch {
      // The transport has shown the error.
    } finally {
      setDownloading(false);
    }
  }
  return { onDownload: spec ? () => void download(spec) : undefined, isDownloading };
}
