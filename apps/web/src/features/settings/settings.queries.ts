import {
  type DomainSettings,
  DomainSettingsAnswerSchema,
  type EventType,
  EventTypeAnswerSchema,
  EventTypesAnswerSchema,
  type RolloutAcceptRequest,
  RolloutOffersAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { devicesKeys } from "../../app/queryKeys";
import { settingsKeys } from "./keys";

/** POST /api/settings/all: the domain's status thresholds and saved copies. */
export async function getDomainSettings(signal?: AbortSignal): Promise<DomainSettings> {
  const answer = await apiRequest("POST /api/settings/all", {
    body: {},
    schema: DomainSettingsAnswerSchema,
    signal,
  });
  return answer.settings;
}

/** The domain settings query. */
export function domainSettingsQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.domain(),
    queryFn: ({ signal }) => getDomainSettings(signal),
  });
}

/** POST /api/event_types: every event kind with its switch. */
export async function getEventTypes(signal?: AbortSignal): Promise<EventType[]> {
  const answer = await apiRequest("POST /api/event_types", {
    body: {},
    schema: EventTypesAnswerSchema,
    signal,
  });
  return answer.items;
}

/** The event types query. */
export function eventTypesQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.eventTypes(),
    queryFn: ({ signal }) => getEventTypes(signal),
  });
}

/** PATCH /api/settings/domains-all: saves, says so, and keeps the answer as the stored settings. */
export function useSaveDomainSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: DomainSettings) =>
      apiRequest("PATCH /api/settings/domains-all", {
        body: { ...settings },
        schema: DomainSettingsAnswerSchema,
      }),
    onSuccess: (answer) => {
      pushInfoMessage({ level: "success", text: notice("informationUpdated") });
      queryClient.setQueryData(settingsKeys.domain(), answer.settings);
      // Device statuses follow the thresholds: lists and the dashboard read them again.
      return queryClient.invalidateQueries({ queryKey: devicesKeys.all });
    },
  });
}

/** PATCH /api/event_type/{id}: one switch; the list is read again whatever the outcome. */
export function useSetEventTypeActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      apiRequest("PATCH /api/event_type/{id}", {
        params: { id },
        body: { active },
        schema: EventTypeAnswerSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKeys.eventTypes() }),
  });
}

/** POST /api/rollout-offers: root's firmware rollouts offered to the domain (ADR 031). */
export function rolloutOffersQueryOptions() {
  return queryOptions({
    queryKey: settingsKeys.rolloutOffers(),
    queryFn: async ({ signal }) =>
      (await apiRequest("POST /api/rollout-offers", { body: {}, schema: RolloutOffersAnswerSchema, signal }))
        .items,
  });
}

/** Accept (now, or in a window) or decline an offered rollout; the answer is the domain's list. */
export function useDecideRolloutOffer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: { id: string; accept: RolloutAcceptRequest | null }) =>
      decision.accept
        ? apiRequest("POST /api/rollout/{rollout_id}/accept", {
            params: { rollout_id: decision.id },
            body: decision.accept,
            schema: RolloutOffersAnswerSchema,
          })
        : apiRequest("POST /api/rollout/{rollout_id}/decline", {
            params: { rollout_id: decision.id },
            schema: RolloutOffersAnswerSchema,
          }),
    onSuccess: (answer) => {
      pushInfoMessage({ level: "success", text: notice("informationUpdated") });
      queryClient.setQueryData(settingsKeys.rolloutOffers(), answer.items);
    },
  });
}
