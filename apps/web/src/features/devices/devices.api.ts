import {
  type BulkCreateDevicesResult,
  BulkCreateDevicesResultSchema,
  type CreateDevice,
  type DashboardTotals,
  DashboardTotalsSchema,
  DeleteDeviceResultSchema,
  type Device,
  type DeviceDetail,
  DeviceDetailSchema,
  type DeviceFacets,
  type DeviceListHeader,
  DeviceListLineSchema,
  type DeviceListRequest,
  DeviceSchema,
  type DevicesMultiple,
  type DevicesMultipleResult,
  DevicesMultipleResultSchema,
  type TagFrequency,
  TagFrequencySchema,
  type UpdateDevice,
} from "@cellfleet/contract";
import { downloadCsvExport } from "../../app/api/csvExport";
import { apiRequest, apiStream } from "../../app/api/http";

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
  await apiStream("/api/devices/", {
    body: { ...request },
    signal,
    schema: DeviceListLineSchema,
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

/** POST /api/dashboard/: device totals by status. */
export function getDashboardTotals(signal?: AbortSignal): Promise<DashboardTotals> {
  return apiRequest("/api/dashboard/", { body: {}, schema: DashboardTotalsSchema, signal });
}

/** POST /api/tags/: tag → frequency over the domain's devices. */
export function getTagFrequencies(signal?: AbortSignal): Promise<TagFrequency> {
  return apiRequest("/api/tags/", { body: {}, schema: TagFrequencySchema, signal });
}

/** POST /api/device/{dev_id}: the device and its latest collects. */
export function getDeviceDetail(id: string, signal?: AbortSignal): Promise<DeviceDetail> {
  return apiRequest(`/api/device/${encodeURIComponent(id)}`, {
    body: {},
    schema: DeviceDetailSchema,
    signal,
  });
}

/** POST /api/devices/new (admins); the form shows errors itself. */
export function createDevice(body: CreateDevice): Promise<Device> {
  return apiRequest("/api/devices/new", { body: { ...body }, schema: DeviceSchema, quiet: true });
}

/** POST /api/devices/bulk (admins): one device a line, a result per line. */
export function bulkCreateDevices(text: string): Promise<BulkCreateDevicesResult> {
  return apiRequest("/api/devices/bulk", {
    body: { text },
    schema: BulkCreateDevicesResultSchema,
    quiet: true,
  });
}

/** POST /api/device/{dev_id}/edit: only the given fields change. */
export function updateDevice(id: string, body: UpdateDevice): Promise<Device> {
  return apiRequest(`/api/device/${encodeURIComponent(id)}/edit`, {
    body: { ...body },
    schema: DeviceSchema,
    quiet: true,
  });
}

/** DELETE /api/device/{dev_id} (admins). */
export async function deleteDevice(id: string): Promise<void> {
  await apiRequest(`/api/device/${encodeURIComponent(id)}`, {
    method: "DELETE",
    schema: DeleteDeviceResultSchema,
  });
}

/** POST /api/devices/multiple/: add or remove tags of, or delete, many devices. */
export function devicesMultiple(body: DevicesMultiple): Promise<DevicesMultipleResult> {
  return apiRequest("/api/devices/multiple/", { body: { ...body }, schema: DevicesMultipleResultSchema });
}
