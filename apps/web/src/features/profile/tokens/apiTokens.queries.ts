import {
  type ApiToken,
  ApiTokenListSchema,
  type ApiTokenOptions,
  ApiTokenOptionsSchema,
  type CreateApiToken,
  type CreatedApiToken,
  CreatedApiTokenSchema,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../../app/api/http";

/** Query keys of the API tokens section (apart from the profile's own keys). */
export const apiTokenKeys = {
  all: ["api-tokens"] as const,
  own: () => [...apiTokenKeys.all, "own"] as const,
  options: () => [...apiTokenKeys.all, "options"] as const,
  domain: () => [...apiTokenKeys.all, "domain"] as const,
};

const OkSchema = z.object({ ok: z.literal(true) });

export function getOwnTokens(_vars: Record<string, never>, signal?: AbortSignal): Promise<ApiToken[]> {
  return apiRequest("POST /api/tokens", { body: {}, schema: ApiTokenListSchema, signal }).then(
    (a) => a.items,
  );
}

export function getTokenOptions(
  _vars: Record<string, never>,
  signal?: AbortSignal,
): Promise<ApiTokenOptions> {
  return apiRequest("POST /api/tokens/options", { body: {}, schema: ApiTokenOptionsSchema, signal });
}

export function getDomainTokens(_vars: Record<string, never>, signal?: AbortSignal): Promise<ApiToken[]> {
  return apiRequest("POST /api/tokens/domain", { body: {}, schema: ApiTokenListSchema, signal }).then(
    (answer) => answer.items,
  );
}

export function ownTokensQueryOptions() {
  return queryOptions({ queryKey: apiTokenKeys.own(), queryFn: ({ signal }) => getOwnTokens({}, signal) });
}

export function tokenOptionsQueryOptions() {
  return queryOptions({
    queryKey: apiTokenKeys.options(),
    queryFn: ({ signal }) => getTokenOptions({}, signal),
  });
}

export function domainTokensQueryOptions() {
  return queryOptions({
    queryKey: apiTokenKeys.domain(),
    queryFn: ({ signal }) => getDomainTokens({}, signal),
  });
}

/** Makes a token; the answer holds its secret, shown once. */
export function useCreateToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiToken): Promise<CreatedApiToken> =>
      apiRequest("POST /api/tokens/new", { body, schema: CreatedApiTokenSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}

/** Revokes one's own token, or (isDomain) any token of the admin's domain. */
export function useRevokeToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isDomain }: { id: string; isDomain: boolean }) =>
      isDomain
        ? apiRequest("DELETE /api/tokens/domain/{tokenId}", { params: { tokenId: id }, schema: OkSchema })
        : apiRequest("DELETE /api/tokens/{tokenId}", { params: { tokenId: id }, schema: OkSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.all }),
  });
}
