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
import { apiRequest, apiUpload } from "../../../app/api/http";
import { accountingKeys } from "../keys";

/** POST /api/policies/: the policies the caller may see (never the default one). */
export async function getPolicies(
  vars: { search?: string },
  signal?: AbortSignal,
): Promise<PolicyListItem[]> {
  const answer = await apiRequest("POST /api/policies/", {
    body: vars,
    schema: PolicyListAnswerSchema,
    signal,
  });
  return answer.items;
}

/** POST /api/policy/{id} with no fields reads one policy. */
export function getPolicy(vars: { id: string }, signal?: AbortSignal): Promise<PolicyDetail> {
  return apiRequest("POST /api/policy/{policyId}", {
    params: { policyId: vars.id },
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
      id === "new"
        ? apiRequest("POST /api/policy/new", {
            body: body as CreatePolicy,
            schema: PolicyDetailSchema,
            quiet: true,
          })
        : apiRequest("POST /api/policy/{policyId}", {
            params: { policyId: id },
            body,
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
 * .txt/.csv and answers the policy with the list replaced. The form shows refusals itself (quiet).
 */
export function uploadDictionary(id: string, kind: DictionaryKind, file: File): Promise<PolicyDetail> {
  return apiUpload("POST /api/policy/{policyId}/dictionary/{kind}", file, {
    params: { policyId: id, kind },
    schema: PolicyDetailSchema,
    quiet: true,
  });
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
