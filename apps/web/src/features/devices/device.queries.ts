import type { CreateDevice, DevicesMultiple, UpdateDevice } from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { devicesKeys } from "../../app/queryKeys";
import {
  bulkCreateDevices,
  createDevice,
  deleteDevice,
  devicesMultiple,
  getDeviceDetail,
  updateDevice,
} from "./device.api";
import { devicePushLog } from "./devicePushes";

// One device's page and the changes to devices; the list's queries are in devices.queries.ts.

export function deviceDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: devicesKeys.detail(id),
    // The socket's pushes that come while the page is read are applied to it again (devicePushes.ts).
    queryFn: async ({ signal }) => {
      const mark = devicePushLog.mark();
      return devicePushLog.onDetail(mark, await getDeviceDetail(id, signal));
    },
  });
}

/** After any change to devices: lists, totals, tags and the device's page are read again. */
export function useInvalidateDevices() {
  const queryClient = useQueryClient();
  return (id?: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: devicesKeys.lists() }),
      queryClient.invalidateQueries({ queryKey: devicesKeys.totals() }),
      queryClient.invalidateQueries({ queryKey: devicesKeys.tags() }),
      id
        ? queryClient.invalidateQueries({ queryKey: devicesKeys.detail(id) })
        : queryClient.invalidateQueries({ queryKey: devicesKeys.details() }),
    ]);
}

export function useCreateDevice() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (body: CreateDevice) => createDevice(body),
    onSuccess: () => invalidate(),
  });
}

export function useBulkCreateDevices() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (text: string) => bulkCreateDevices(text),
    onSuccess: () => invalidate(),
  });
}

export function useUpdateDevice(id: string) {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (body: UpdateDevice) => updateDevice(id, body),
    onSuccess: () => invalidate(id),
  });
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteDevice(id),
    // The deleted device's own query is left alone: the page that deleted it is still mounted, and
    // removing or invalidating it would read the device again and answer DEVICE_NOT_FOUND (issue 11).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: devicesKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: devicesKeys.totals() }),
        queryClient.invalidateQueries({ queryKey: devicesKeys.tags() }),
      ]),
  });
}

export function useDevicesMultiple() {
  const invalidate = useInvalidateDevices();
  return useMutation({
    mutationFn: (body: DevicesMultiple) => devicesMultiple(body),
    onSuccess: () => invalidate(),
  });
}
