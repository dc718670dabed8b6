import { type UptimeReport, type UptimeReportRequest, UptimeReportSchema } from "@cellfleet/contract";
import { apiRequest } from "../../app/api/http";

/** POST /api/uptime: a month's uptime of the domain's routers, a tag's or one router's. */
export function getUptimeReport(request: UptimeReportRequest, signal?: AbortSignal): Promise<UptimeReport> {
  return apiRequest("POST /api/uptime", { body: { ...request }, schema: UptimeReportSchema, signal });
}
