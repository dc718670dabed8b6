import type { DeviceListRequest } from "@cellfleet/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { devicesKeys } from "../../app/queryKeys";
import { devicePushLog } from "./devicePushes";
import { type DeviceListPage, getDashboardTotals, getDeviceList, getTagFrequencies } from "./devices.api";

/**
 * One page of the device list. While the NDJSON answer streams, each line is written into the
 * cache, so the table shows rows before the last one is read; the previous page stays on screen
 * until the first line of the next one arrives.
 */
export function deviceListQueryOptions(request: DeviceListRequest) {
  const queryKey = devicesKeys.list(request);
  return queryOptions({
    queryKey,
    // The socket's pushes that come while the page is read are applied to it again (devicePushes.ts).
    queryFn: async ({ signal, client }) => {
      const mark = devicePushLog.mark();
      const onProgress = (page: DeviceListPage) =>
        client.setQueryData<DeviceListPage>(queryKey, devicePushLog.onPage(mark, page));
      return devicePushLog.onPage(mark, await getDeviceList(request, onProgress, signal));
    },
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
