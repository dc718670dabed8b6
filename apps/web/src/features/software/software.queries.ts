import {
  FIRMWARE_STATUS,
  type SaveSoftwareRule,
  type SoftwareRule,
  SoftwareRuleSchema,
  SoftwareRulesAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiDownload, apiRequest } from "../../app/api/http";
import { softwareKeys } from "./keys";

/**
 * While a fetch is under way (Pending, Accepted) and the socket is down, the server is asked again
 * this often; while the socket is up its `software` pushes keep the rules live (software.live.ts).
 */
export const SOFTWARE_FALLBACK_POLL_MS = 10_000;

/** Whether the server is still fetching the rule's file. */
export function isFetching(rule: Pick<SoftwareRule, "status">): boolean {
  return rule.status === FIRMWARE_STATUS.pending || rule.status === FIRMWARE_STATUS.accepted;
}

/** POST /api/firmwares: every rule (searched in the browser: the list is root's and short). */
export async function getSoftwareRules(signal?: AbortSignal): Promise<SoftwareRule[]> {
  return (await apiRequest("POST /api/firmwares", { body: {}, schema: SoftwareRulesAnswerSchema, signal }))
    .items;
}

export function getSoftwareRule(vars: { id: string }, signal?: AbortSignal): Promise<SoftwareRule> {
  return apiRequest("POST /api/software/{id}", { params: vars, schema: SoftwareRuleSchema, signal });
}

/** The rules; `isLive`: the socket is up (useRealtimeLive), so pushes replace the poll. */
export function softwareListQueryOptions(isLive: boolean) {
  return queryOptions({
    queryKey: softwareKeys.list(),
    queryFn: ({ signal }) => getSoftwareRules(signal),
    refetchInterval: (query) =>
      !isLive && query.state.data?.some(isFetching) ? SOFTWARE_FALLBACK_POLL_MS : false,
  });
}

export function softwareRuleQueryOptions(id: string, isLive: boolean) {
  return queryOptions({
    queryKey: softwareKeys.rule(id),
    queryFn: ({ signal }) => getSoftwareRule({ id }, signal),
    refetchInterval: (query) =>
      !isLive && query.state.data && isFetching(query.state.data) ? SOFTWARE_FALLBACK_POLL_MS : false,
  });
}

function useSettled() {
  const queryClient = useQueryClient();
  return (rule?: SoftwareRule) => {
    if (rule) queryClient.setQueryData(softwareKeys.rule(rule._id), rule);
    return queryClient.invalidateQueries({ queryKey: softwareKeys.all });
  };
}

/** Creates (POST /api/software/new) or saves (…/{id}/save) a rule; the form shows refusals. */
export function useSaveSoftwareRule(id: string | null) {
  const settled = useSettled();
  return useMutation({
    mutationFn: (body: SaveSoftwareRule) =>
      id === null
        ? apiRequest("POST /api/software/new", { body, schema: SoftwareRuleSchema, quiet: true })
        : apiRequest("POST /api/software/{id}/save", {
            params: { id },
            body,
            schema: SoftwareRuleSchema,
            quiet: true,
          }),
    onSuccess: (rule) => settled(rule),
  });
}

/** Asks the server to fetch the rule's file again. */
export function useSyncSoftwareRule(id: string) {
  const settled = useSettled();
  return useMutation({
    mutationFn: () =>
      apiRequest("POST /api/software/{id}/sync", { params: { id }, schema: SoftwareRuleSchema }),
    onSuccess: (rule) => settled(rule),
  });
}

export function useDeleteSoftwareRule(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest("DELETE /api/software/{id}", { params: { id } }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: softwareKeys.rule(id) });
      return queryClient.invalidateQueries({ queryKey: softwareKeys.list() });
    },
  });
}

/** Saves the rule's fetched firmware under its name. */
export function downloadSoftwareFile(rule: SoftwareRule): Promise<void> {
  return apiDownload("GET /api/software/{id}/file", rule.file?.filename ?? "firmware.bin", {
    params: { id: rule._id },
  });
}
