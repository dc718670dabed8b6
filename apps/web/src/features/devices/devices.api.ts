import type {
  DashboardTotals,
  Device,
  DeviceFacets,
  DeviceListHeader,
  DeviceListRequest,
  TagFrequency,
} from "@cellfleet/contract";
import { downloadCsvExport } from "../../app/api/csvExport";
import { apiRequest, apiStream } from "../../app/api/http";

// The device list's reads: the dashboard's start. Their answers are the server's checked ones and
// are not checked again here, so this module brings no zod (ADR 026). One device's page and the
// changes to devices are in device.api.ts.

/** A device list page as it streams in: the header, the rows read so far, and the facets at the end. */
export interface DeviceListPage {
  header: DeviceListHeader | null;
  rows: Device[];
  facets: DeviceFacets | null;
  /** True once the last line was read. */
  isComplete: boolean;
}

/**
 * POST /api/devices/ (NDJSON): `onProgress` gets a fresh snapshot after each piece of the answer that
 * arrived together, so the table renders rows as they come; the promise answers the complete page.
 */
export async function getDeviceList(
  request: DeviceListRequest,
  onProgress: (page: DeviceListPage) => void,
  signal?: AbortSignal,
): Promise<DeviceListPage> {
  let page: DeviceListPage = { header: null, rows: [], facets: null, isComplete: false };
  // One snapshot per network chunk, not per line: the lines of a chunk are handled in one go. Each
  // snapshot is a cache update and a render of the whole list card, and a 100-row page arrives in a
  // few chunks but 102 lines.
  let isScheduled = false;
  let isDone = false;
  const report = () => {
    isScheduled = false;
    if (!isDone) onProgress(page);
  };
  // Not checked again here: the dashboard's start path takes the server's lines as the contract's
  // (ADR 026); the server's tests check them against DeviceListLineSchema.
  await apiStream("POST /api/devices/", {
    body: { ...request },
    signal,
    onLine: (line) => {
      if ("facets" in line) page = { ...page, facets: line.facets };
      else if ("_id" in line) page = { ...page, rows: [...page.rows, line] };
      else if ("total" in line) page = { ...page, header: line };
      if (!isScheduled) {
        isScheduled = true;
        queueMicrotask(report);
      }
    },
  });
  isDone = true;
  return { ...page, isComplete: true };
}

/** POST /api/devices/export: the filtered list as CSV, saved as devices.csv. */
export function downloadDevices(request: DeviceListRequest): Promise<void> {
  return downloadCsvExport("devices", request);
}

/** POST /api/dashboard/: device totals by status (checked by the server on the way out, ADR 026). */
export function getDashboardTotals(signal?: AbortSignal): Promise<DashboardTotals> {
  return apiRequest("POST /api/dashboard/", { body: {}, signal });
}

/** POST /api/tags/: tag → frequency over the domain's devices (checked by the server, ADR 026). */
export function getTagFrequencies(signal?: AbortSignal): Promise<TagFrequency> {
  return apiRequest("POST /api/tags/", { body: {}, signal });
}
