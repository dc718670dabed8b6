import {
  type DeviceImportPlan,
  DeviceImportPlanSchema,
  type DeviceImportResult,
  DeviceImportResultSchema,
} from "@cellfleet/contract";
import { apiUpload } from "../../app/api/http";

// Routers from a file (ADR 042), apart from device.api.ts so only the import tab loads its schemas.

/** POST /api/devices/import/check (admins): what a CSV or XLSX file would do; the form shows errors itself. */
export function checkDeviceImport(file: File): Promise<DeviceImportPlan> {
  return apiUpload("POST /api/devices/import/check", file, { schema: DeviceImportPlanSchema, quiet: true });
}

/** POST /api/devices/import/{plan} (admins): the checked file applied, all or nothing. */
export function applyDeviceImport(file: File, plan: string): Promise<DeviceImportResult> {
  return apiUpload("POST /api/devices/import/{plan}", file, {
    params: { plan },
    schema: DeviceImportResultSchema,
    quiet: true,
  });
}
