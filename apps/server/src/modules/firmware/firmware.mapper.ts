import { firmwareSeriesFromUrl, type SoftwareRule } from "@cellfleet/contract";
import type { SoftwareRuleRow } from "../../platform/db/schema-firmware";

/** The one mapper of a software rule row to what the API answers. */
export function toSoftwareRule(row: SoftwareRuleRow): SoftwareRule {
  return {
    _id: row.id,
    name: row.name,
    url: row.url,
    models: row.models,
    status: row.status,
    error: row.error,
    sync_time: row.sync_time?.getTime() ?? null,
    series: firmwareSeriesFromUrl(row.url),
    file:
      row.file_key && row.filename
        ? {
            _id: row.id,
            filename: row.filename,
            size: Number(row.size ?? 0),
            sha256: row.sha256 ?? "",
            metadata: { file_type: "firmware" },
          }
        : null,
    create_time: row.create_time.getTime(),
    update_time: row.update_time.getTime(),
  };
}
