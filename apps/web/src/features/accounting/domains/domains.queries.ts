import {
  AccountingUserSchema,
  type CreateDomain,
  type CreateManager,
  type DomainDetail,
  DomainDetailSchema,
  DomainListAnswerSchema,
  type DomainListItem,
  type UpdateDomain,
  type UpdateManager,
} from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";
import { accountingKeys } from "../keys";

/** POST /api/domains/: every domain, narrowed by `search`. */
export async function getDomains(vars: { search?: string }, signal?: AbortSignal): Promise<DomainListItem[]> {
  const answer = await apiRequest("POST /api/domains/", {
    body: vars,
    schema: DomainListAnswerSchema,
    signal,
  });
  return answer.items;
}

/** POST /api/domain/{id} with no fields reads a domain with its admins. */
export function getDomain(vars: { id: string }, signal?: AbortSignal): Promise<DomainDetail> {
  return apiRequest("POST /api/domain/{domainId}", {
    params: { domainId: vars.id },
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
      id === null
        ? apiRequest("POST /api/domains/new", {
            body: body as CreateDomain,
            schema: DomainDetailSchema,
            quiet: true,
          })
        : apiRequest("POST /api/domain/{domainId}", {
            params: { domainId: id },
            body: body as UpdateDomain,
            schema: DomainDetailSchema,
            quiet: true,
          }),
    onSuccess: (domain) => {
      queryClient.setQueryData(accountingKeys.domain(domain._id), domain);
      return queryClient.invalidateQueries({ queryKey: accountingKeys.all });
    },
  });
}

/** Whose managers a page shows: a domain's admins or the superusers. */
type ManagerScope = { domainId: string } | "superuser";

/** Reads one domain admin or superuser (no fields). */
function getManager(scope: ManagerScope, userId: string, signal: AbortSignal) {
  return scope === "superuser"
    ? apiRequest("POST /api/superuser/{userId}", { params: { userId }, schema: AccountingUserSchema, signal })
    : apiRequest("POST /api/domain/{domainId}/admins/{userId}", {
        params: { domainId: scope.domainId, userId },
        schema: AccountingUserSchema,
        signal,
      });
}

/** Creates (user id 'new') or changes a domain admin or a superuser; the form shows refusals. */
function saveManager(scope: ManagerScope, userId: string, body: CreateManager | UpdateManager) {
  const options = { schema: AccountingUserSchema, quiet: true };
  if (scope === "superuser") {
    return userId === "new"
      ? apiRequest("POST /api/superuser/new", { body: body as CreateManager, ...options })
      : apiRequest("POST /api/superuser/{userId}", { params: { userId }, body, ...options });
  }
  const { domainId } = scope;
  return userId === "new"
    ? apiRequest("POST /api/domain/{domainId}/admins/new", {
        params: { domainId },
        body: body as CreateManager,
        ...options,
      })
    : apiRequest("POST /api/domain/{domainId}/admins/{userId}", {
        params: { domainId, userId },
        body,
        ...options,
      });
}

/** Reads one domain admin or superuser (no fields). */
export function managerQueryOptions(scope: ManagerScope, userId: string) {
  return queryOptions({
    queryKey:
      scope === "superuser"
        ? accountingKeys.superuser(userId)
        : [...accountingKeys.domain(scope.domainId), "admin", userId],
    queryFn: ({ signal }) => getManager(scope, userId, signal),
  });
}

/** Creates or changes a domain admin or a superuser; the form shows refusals next to its fields. */
export function useSaveManager(scope: ManagerScope, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateManager | UpdateManager) => saveManager(scope, userId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountingKeys.all }),
  });
}

/** Deletes a domain admin or a superuser. */
export function useDeleteManager(scope: ManagerScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      scope === "superuser"
        ? apiRequest("DELETE /api/superuser/{userId}", { params: { userId } })
        : apiRequest("DELETE /api/domain/{domainId}/admins/{userId}", {
            params: { domainId: scope.domainId, userId },
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: accountingKeys.all }),
  });
}
