import type { UptimeReportRequest } from "@cellfleet/contract";

/** Query keys of the uptime reports. */
export const uptimeKeys = {
  all: ["uptime"] as const,
  report: (request: UptimeReportRequest) => [...uptimeKeys.all, "report", request] as const,
};
