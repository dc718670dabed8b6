import type { UptimeReportRequest } from "@cellfleet/contract";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { uptimeKeys } from "./keys";
import { getUptimeReport } from "./uptime.api";

/** A month's report; the previous one stays on screen while another month or scope loads. */
export function uptimeReportQueryOptions(request: UptimeReportRequest) {
  return queryOptions({
    queryKey: uptimeKeys.report(request),
    queryFn: ({ signal }) => getUptimeReport(request, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}
