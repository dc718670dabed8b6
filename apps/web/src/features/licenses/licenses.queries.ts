import {
  type License,
  LicenseAnswerSchema,
  LicenseFingerprintAnswerSchema,
  type LicensesAnswer,
  LicensesAnswerSchema,
  RefreshLicensesAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { licenseKeys } from "./keys";

/** While an activation or refresh runs on the server, the list asks again this often. */
export const LICENSE_POLL_MS = 1000;

/** POST /api/licenses: the licences and the installation's router usage. */
export async function getLicenses(signal?: AbortSignal): Promise<LicensesAnswer> {
  return apiRequest("POST /api/licenses", { body: {}, schema: LicensesAnswerSchema, signal });
}

/** The list; it polls while a licence is being activated or refreshed (a job on the server). */
export function licensesQueryOptions() {
  return queryOptions({
    queryKey: licenseKeys.list(),
    queryFn: ({ signal }) => getLicenses(signal),
    refetchInterval: (query) =>
      query.state.data?.items.some((item) => item.refreshing) ? LICENSE_POLL_MS : false,
  });
}

/** POST /api/licenses/fingerprint: this installation's digital print. */
export function fingerprintQueryOptions() {
  return queryOptions({
    queryKey: licenseKeys.fingerprint(),
    queryFn: ({ signal }) =>
      apiRequest("POST /api/licenses/fingerprint", {
        body: {},
        schema: LicenseFingerprintAnswerSchema,
        signal,
      }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** POST /api/licenses/new: adds a key; the caller shows a refusal beside the field (quiet). */
export function useAddLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      apiRequest("POST /api/licenses/new", { body: { key }, schema: LicenseAnswerSchema, quiet: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: licenseKeys.list() }),
  });
}

/** POST /api/licenses/update: re-asks the licence service for one licence, or for all. */
export function useRefreshLicenses() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | undefined) =>
      apiRequest("POST /api/licenses/update", {
        body: id ? { id } : {},
        schema: RefreshLicensesAnswerSchema,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: licenseKeys.list() }),
  });
}

/**
 * POST /api/licenses/upload: a licence file's text (offline activation). Quiet: the caller says
 * why a file was refused in the person's language (the server's detail is for the log).
 */
export function useUploadLicense() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (document: string) =>
      apiRequest("POST /api/licenses/upload", {
        body: { document },
        schema: LicenseAnswerSchema,
        quiet: true,
      }),
    onSuccess: () => {
      pushInfoMessage({ level: "success", text: notice("success") });
      return queryClient.invalidateQueries({ queryKey: licenseKeys.list() });
    },
  });
}

/** A failure this recent is news: announced once; an older one is only shown in the list. */
export const FRESH_FAILURE_MS = 30_000;

/**
 * The licences whose last activation or refresh failed in the last {@link FRESH_FAILURE_MS} and
 * were not announced yet; marks them in `announced` (keys of licence id and attempt time).
 */
export function freshFailures(items: readonly License[], nowMs: number, announced: Set<string>): License[] {
  return items.filter((item) => {
    if (item.refreshing || item.error === null || item.check_time === null) return false;
    const key = `${item._id}:${item.check_time}`;
    if (announced.has(key) || nowMs - new Date(item.check_time).getTime() > FRESH_FAILURE_MS) return false;
    announced.add(key);
    return true;
  });
}
