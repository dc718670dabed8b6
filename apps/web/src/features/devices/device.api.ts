import {
  type BulkCreateDevicesResult,
  BulkCreateDevicesResultSchema,
  type CreateDevice,
  DeleteDeviceResultSchema,
  type Device,
  type DeviceDetail,
  DeviceDetailSchema,
  DeviceSchema,
  type DevicesMultiple,
  type DevicesMultipleResult,
  DevicesMultipleResultSchema,
  type UpdateDevice,
} from "@cellfleet/contract";
import { apiRequest } from "../../app/api/http";

// One device's page and the changes to devices; the list's reads are in devices.api.ts.

/** POST /api/device/{dev_id}: the device and its latest collects. */
export function getDeviceDetail(id: string, signal?: AbortSignal): Promise<DeviceDetail> {
  return apiRequest("POST /api/device/{dev_id}", {
    params: { dev_id: id },
    body: {},
    schema: DeviceDetailSchema,
    signal,
  });
}

/** POST /api/devices/new (admins); the form shows errors itself. */
export function createDevice(body: CreateDevice): Promise<Device> {
  return apiRequest("POST /api/devices/new", { body: { ...body }, schema: DeviceSchema, quiet: true });
}

/** POST /api/devices/bulk (admins): one device a line, a result per line. */
export function bulkCreateDevices(text: string): Promise<BulkCreateDevicesResult> {
  return apiRequest("POST /api/devices/bulk", {
    body: { text },
    schema: BulkCreateDevicesResultSchema,
    quiet: true,
  });
}

/** POST /api/device/{dev_id}/edit: only the given fields change. */
export function updateDevice(id: string, body: UpdateDevice): Promise<Device> {
  return apiRequest("POST /api/device/{dev_id}/edit", {
    params: { dev_id: id },
    body: { ...body },
    schema: DeviceSchema,
    quiet: true,
  });
}

/** DELETE /api/device/{dev_id} (admins). */
export async function deleteDevice(id: string): Promise<void> {
  await apiRequest("DELETE /api/device/{dev_id}", {
    params: { dev_id: id },
    schema: DeleteDeviceResultSchema,
  });
}

/** POST /api/devices/multiple/: add or remove tags of, or delete, many devices. */
export function devicesMultiple(body: DevicesMultiple): Promise<DevicesMultipleResult> {
  return apiRequest("POST /api/devices/multiple/", {
    body: { ...body },
    schema: DevicesMultipleResultSchema,
  });
}
