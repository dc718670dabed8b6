import type { CreateDevice, DeviceListRequest, DevicesMultiple, UpdateDevice } from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import {
  bulkCreateDevices,
  createDevice,
  type DeviceListPage,
  deleteDevice,
  devicesMultiple,
  getDashboardTotals,
  getDeviceDetail,
  getDeviceList,
  getTagFrequencies,
  updateDevice,
} from "./devices.api";
import { devicesKeys } from "./keys";

/**
 * One page of the device list. While the NDJSON answer streams, each line is written into the
 * cache, so the table shows rows before the last one is read; the previous page stays on screen
 * until the first line of the next one arrives.
 */
export function deviceListQueryOptions(request: DeviceListRequest) {
  const queryKey = devicesKeys.list(request);
  return queryOptions({
    queryKey,
    queryFn: ({ signal, client }) =>
      getDeviceList(request, (page) => client.setQueryData<DeviceListPage>(queryKey, page), signal),
    placeholderData: keepPreviousData,
    // Live updates patch the cached page; a refetch is only needed when the filters change.
    staleTime: 60_000,
  });
}

export function dashboardTotalsQueryOptions() {
  return queryOptions({
    queryKey: devicesKeys.totals(),
    queryFn: ({ signal }) => getDashboardTotals(signal),
  });
}

export function tagFrequenciesQueryOptions() {
  return queryOptions({
    queryKey: devicesKeys.tags(),
    queryFn: ({ signal }) => getTagFrequencies(signal),
    staleTime: 5 * 60_000,
  });
}

export function deviceDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: devicesKeys.detail(id),
    queryFn: ({ signal }) => getDeviceDetail(id, signal),
  });
}

/** After any change to devices: lists, totals, tags and the device's page are read again. */
function useInvalidateDevices() {
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
