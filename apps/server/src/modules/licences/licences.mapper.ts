import { LICENSE_STATUS, type License } from "@cellfleet/contract";
import type { LicenseRow } from "../../platform/db/schema-licenses";
import { licenseErrorOf, licenseStatusOf, shortLicenseId } from "./licences.rules";

/** The one DTO of a licence (spec §3), for the list and every answer that returns one. */
export function toLicenseDto(row: LicenseRow, now: Date): License {
  const payload = row.document;
  const status = licenseStatusOf(row, now);
  return {
    _id: row.id,
    license_id: shortLicenseId(row.key),
    status,
    error: licenseErrorOf(row, now),
    update_time: row.update_time?.toISOString() ?? null,
    check_time: row.check_time?.toISOString() ?? null,
    validFromDate: payload?.validFrom ?? null,
    validUpToDate: payload?.validUntil ?? null,
    activation_date: row.activation_date?.toISOString() ?? null,
    expire: status === LICENSE_STATUS.expired,
    devices: payload?.status === "active" ? payload.deviceCount : 0,
    refreshing: row.refreshing,
  };
}
