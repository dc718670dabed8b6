import {
  type CreatePolicy,
  type DictionaryKind,
  type PolicyDetail,
  PolicyDetailSchema,
  PolicyListAnswerSchema,
  type PolicyListItem,
  type UpdatePolicy,
} from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../../../app/api/ApiError";
import { handleTransportError } from "../../../app/api/handleTransportError";
import { apiRequest } from "../../../app/api/http";
import { loadingStore } from "../../../app/loading/loadingStore";
import { sessionStore } from "../../../app/session/sessionStore";
import { accountingKeys } from "../keys";

/** POST /api/policies/: the policies the caller may see (never the default one). */
export async function getPolicies(
  vars: { search?: string },
  signal?: AbortSignal,
): Promise<PolicyListItem[]> {
  const answer = await apiRequest("/api/policies/", { body: vars, schema: PolicyListAnswerSchema, signal });
  return answer.items;
}

/** POST /api/policy/{id} with no fields reads one policy. */
export function getPolicy(vars: { id: string }, signal?: AbortSignal): Promise<PolicyDetail> {
  return apiRequest(`/api/policy/${encodeURIComponent(vars.id)}`, {
    body: {},
    schema: PolicyDetailSchema,
    signal,
  });
}

export function policyListQueryOptions(search = "") {
  return queryOptions({
    queryKey: [...accountingKeys.policyList(), search],
    queryFn: ({ signal }) => getPolicies(search ? { search } : {}, signal),
    placeholderData: keepPreviousData,
  });
}

export function policyQueryOptions(id: string) {
  return queryOptions({
    queryKey: accountingKeys.policy(id),
    queryFn: ({ signal }) => getPolicy({ id }, signal),
  });
}

/** Creates (id 'new') or changes a policy; the form shows refusals itself (quiet). */
export function useSavePolicy(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreatePolicy | UpdatePolicy) =>
      apiRequest(`/api/policy/${encodeURIComponent(id)}`, {
        body: body as Record<string, unknown>,
        schema: PolicyDetailSchema,
        quiet: true,
      }),
    onSuccess: (policy) => {
      queryClient.setQueryData(accountingKeys.policy(policy._id), policy);
      return queryClient.invalidateQueries({ queryKey: accountingKeys.all });
    },
  });
}

/**
 * POST /api/policy/{id}/dictionary/{kind}: multipart with the field `file`; the server parses the
 * .txt/.csv and answers the policy with the list replaced.
 */
export async function uploadDictionary(id: string, kind: DictionaryKind, file: File): Promise<PolicyDetail> {
  const path = `/api/policy/${encodeURIComponent(id)}/dictionary/${kind}`;
  const data = new FormData();
  const token = sessionStore.token();
  if (token) data.append("token", token);
  data.append("file", file, file.name);
  const done = loadingStore.track();
  try {
    let response: Response;
    try {
      response = await fetch(path, { method: "POST", headers: token ? { Token: token } : {}, body: data });
    } catch (cause) {
      throw handleTransportError(new ApiError(0, null, String(cause), path), true);
    }
    const body: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
      throw handleTransportError(
        new ApiError(
          response.status,
          typeof code === "string" ? code : null,
          typeof message === "string" ? message : response.statusText,
          path,
        ),
        true,
      );
    }
    return PolicyDetailSchema.parse(body);
  } finally {
    done();
  }
}

export function useUploadDictionary(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: DictionaryKind; file: File }) => uploadDictionary(id, kind, file),
    onSuccess: async (policy) => {
      // A read still in flight (the refresh after a save) would put the list back as it was.
      await queryClient.cancelQueries({ queryKey: accountingKeys.policy(policy._id) });
      queryClient.setQueryData(accountingKeys.policy(policy._id), policy);
      return queryClient.invalidateQueries({ queryKey: accountingKeys.policies() });
    },
  });
}
