import {
  type AcceptAdoptionInput,
  type Adoption,
  AdoptionSchema,
  type AdoptionStatus,
  AdoptionsAnswerSchema,
  type ZeroTouchConfig,
  type ZeroTouchConfigInput,
  ZeroTouchConfigSchema,
  ZeroTouchConfigsAnswerSchema,
  type ZeroTouchSecretAnswer,
  ZeroTouchSecretAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";

/** Query keys of zero-touch configurations and the adoption list. */
export const zeroTouchKeys = {
  all: ["zerotouch"] as const,
  configs: () => [...zeroTouchKeys.all, "configs"] as const,
  config: (id: string) => [...zeroTouchKeys.all, "config", id] as const,
  adoptions: (status: AdoptionStatus | "all") => [...zeroTouchKeys.all, "adoptions", status] as const,
};

/** POST /api/zerotouch/configs. */
export function configsQueryOptions() {
  return queryOptions({
    queryKey: zeroTouchKeys.configs(),
    queryFn: async ({ signal }) =>
      (
        await apiRequest("POST /api/zerotouch/configs", {
          body: {},
          schema: ZeroTouchConfigsAnswerSchema,
          signal,
        })
      ).items,
  });
}

/** POST /api/zerotouch/config/{id}. */
export function configQueryOptions(id: string) {
  return queryOptions({
    queryKey: zeroTouchKeys.config(id),
    queryFn: ({ signal }) =>
      apiRequest("POST /api/zerotouch/config/{id}", {
        params: { id },
        schema: ZeroTouchConfigSchema,
        signal,
      }),
  });
}

/** POST /api/zerotouch/config/new: answers the secret, this once. */
export function createConfig(body: ZeroTouchConfigInput): Promise<ZeroTouchSecretAnswer> {
  return apiRequest("POST /api/zerotouch/config/new", {
    body: { ...body },
    schema: ZeroTouchSecretAnswerSchema,
  });
}

/** POST /api/zerotouch/config/{id}/save. */
export function saveConfig(id: string, body: ZeroTouchConfigInput): Promise<ZeroTouchConfig> {
  return apiRequest("POST /api/zerotouch/config/{id}/save", {
    params: { id },
    body,
    schema: ZeroTouchConfigSchema,
  });
}

/** POST /api/zerotouch/config/{id}/secret: a new secret, answered this once. */
export function renewSecret(id: string): Promise<ZeroTouchSecretAnswer> {
  return apiRequest("POST /api/zerotouch/config/{id}/secret", {
    params: { id },
    schema: ZeroTouchSecretAnswerSchema,
  });
}

/** DELETE /api/zerotouch/config/{id}. */
export async function deleteConfig(id: string): Promise<void> {
  await apiRequest("DELETE /api/zerotouch/config/{id}", { params: { id } });
}

/** POST /api/zerotouch/adoptions. */
export function adoptionsQueryOptions(status: AdoptionStatus | "all") {
  return queryOptions({
    queryKey: zeroTouchKeys.adoptions(status),
    queryFn: async ({ signal }) =>
      (
        await apiRequest("POST /api/zerotouch/adoptions", {
          body: { status },
          schema: AdoptionsAnswerSchema,
          signal,
        })
      ).items,
  });
}

/** POST /api/zerotouch/adoption/{id}/accept or …/reject. */
export function decideAdoption(
  id: string,
  decision: "accept" | "reject",
  body: AcceptAdoptionInput = {},
): Promise<Adoption> {
  return decision === "accept"
    ? apiRequest("POST /api/zerotouch/adoption/{id}/accept", { params: { id }, body, schema: AdoptionSchema })
    : apiRequest("POST /api/zerotouch/adoption/{id}/reject", { params: { id }, schema: AdoptionSchema });
}
