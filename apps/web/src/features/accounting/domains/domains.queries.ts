import {
  type CreateDomain,
  type CreateManager,
  type DomainDetail,
  DomainDetailSchema,
  DomainListAnswerSchema,
  type DomainListItem,
  type UpdateDomain,
  type UpdateManager,
  UserSchema,
} from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";
import { accountingKeys } from "../keys";

/** POST /api/domains/: every domain, narrowed by `search`. */
export async function getDomains(vars: { search?: string }, signal?: AbortSignal): Promise<DomainListItem[]> {
  const answer = await apiRequest("/api/domains/", { body: vars, schema: DomainListAnswerSchema, signal });
  return answer.items;
}

/** POST /api/domain/{id} with no fields reads a domain with its admins. */
export function getDomain(vars: { id: string }, signal?: AbortSignal): Promise<DomainDetail> {
  return apiRequest(`/api/domain/${encodeURIComponent(vars.id)}`, {
    body: {},
    schema: DomainDetailSchema,
    signal,
  });
}

export function domainListQueryOptions(search = "") {
  return queryOptions({
    queryKey: accountingKeys.domainList(search),
    queryFn: ({ signal }) => getDomains(search ? { search } : {}, signal),
    placeholderData: keepPreviousData,
  });
}

export function domainQueryOptions(id: string) {
  return queryOptions({
    queryKey: accountingKeys.domain(id),
    queryFn: ({ signal }) => getDomain({ id }, signal),
  });
}

/** Creates (POST /api/domains/new) or changes (POST /api/domain/{id}) a domain; the form shows refusals. */
export function useSaveDomain(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateDomain | UpdateDomain) =>
      apiRequest(id === null ? "/api/domains/new" : `/api/domain/${encodeURIComponent(id)}`, {
        body: body as Record<string, unknown>,
        schema: DomainDetailSchema,
        quiet: true,
      }),
    onSuccess: (domain) => {
      queryClient.setQueryData(accountingKeys.domain(domain._id), domain);
      return queryClient.invalidateQueries({ queryKey: accountingKeys.all });
    },
  });
}

/** Where a manager (a domain admin or a superuser) is read, created ('new') and changed. */
export function managerPath(scope: { domainId: string } | "superuser", userId: string): string {
  const id = encodeURIComponent(userId);
  return scope === "superuser"
    ? `/api/superuser/${id}`
    : `/api/domain/${encodeURIComponent(scope.domainId)}/admins/${id}`;
}

/** Reads one domain admin or superuser (no fields). */
export function managerQueryOptions(scope: { domainId: string } | "superuser", userId: string) {
  return queryOptions({
    queryKey:
      scope === "superuser"
        ? accountingKeys.superuser(userId)
        : [...accountingKeys.domain(scope.domainId), "admin", userId],
    queryFn: ({ signal }) => apiRequest(managerPath(scope, userId), { body: {}, schema: UserSchema, signal }),
  });
}

/** Creates or changes a domain admin or a superuser; the form shows refusals next to its fields. */
export function useSaveManager(scope: { domainId: string } | "superuser", userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateManager | UpdateManager) =>
      apiRequest(managerPath(scope, userId), {
        body: body as Record<string, unknown>,
        schema: UserSchema,
        quiet: true,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountingKeys.all }),
  });
}

/** Deletes a domain admin or a superuser. */
export function useDeleteManager(scope: { domainId: string } | "superuser") {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiRequest(managerPath(scope, userId), { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountingKeys.all }),
  });
}
