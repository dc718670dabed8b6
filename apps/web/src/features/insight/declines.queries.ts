import type { SignalDecline } from "@cellfleet/contract";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { insightKeys } from "./keys";

// The dashboard's signal declines, apart from the device page's insight reads: the dashboard's start
// takes the server's checked answer (ADR 026), so this module brings no zod.

/** POST /api/dashboard/signal: routers whose signal got worse in the last 24 hours (the dashboard: ADR 026). */
export async function getSignalDeclines(signal?: AbortSignal): Promise<SignalDecline[]> {
  return (await apiRequest("POST /api/dashboard/signal", { body: {}, signal })).devices;
}

export function signalDeclinesQueryOptions() {
  return queryOptions({
    queryKey: insightKeys.declines(),
    queryFn: ({ signal }) => getSignalDeclines(signal),
    staleTime: 5 * 60_000,
  });
}
