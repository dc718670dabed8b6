import {
  type ChatLookup,
  ChatLookupAnswerSchema,
  type CreateTransport,
  type TestTransport,
  TestTransportAnswerSchema,
  type Transport,
  TransportListAnswerSchema,
  TransportSchema,
  type UpdateTransport,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../app/api/http";
import { notificationsKeys } from "./keys";

/** POST /api/notifications/transports: every provider of the person's scope. */
export function transportListQueryOptions() {
  return queryOptions({
    queryKey: notificationsKeys.transportList(),
    queryFn: async ({ signal }) =>
      (
        await apiRequest("POST /api/notifications/transports", {
          body: {},
          schema: TransportListAnswerSchema,
          signal,
        })
      ).items,
  });
}

/** POST /api/notifications/transport/{id}: one provider, without its secret. */
export function transportQueryOptions(id: string) {
  return queryOptions({
    queryKey: notificationsKeys.transport(id),
    queryFn: ({ signal }) =>
      apiRequest("POST /api/notifications/transport/{id}", {
        params: { id },
        body: {},
        schema: TransportSchema,
        signal,
      }),
  });
}

/** Creates (id null) or changes a provider; the form shows refusals beside its fields. */
export function useSaveTransport(id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateTransport | UpdateTransport): Promise<Transport> =>
      id
        ? apiRequest("PUT /api/notifications/transport/{id}", {
            params: { id },
            body: body as UpdateTransport,
            schema: TransportSchema,
            quiet: true,
          })
        : apiRequest("POST /api/notifications/transport/new", {
            body: body as CreateTransport,
            schema: TransportSchema,
            quiet: true,
          }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsKeys.all }),
  });
}

/** DELETE /api/notifications/transport/{id}; TRANSPORT_IS_USED is shown by the shared client. */
export function useDeleteTransport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest("DELETE /api/notifications/transport/{id}", {
        params: { id },
        body: {},
        schema: z.object({ ok: z.literal(true) }),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationsKeys.transports() }),
  });
}

/** POST /api/notifications/transport/test: one test message with the form's values. */
export function useTestTransport() {
  return useMutation({
    mutationFn: (body: TestTransport) =>
      apiRequest("POST /api/notifications/transport/test", {
        body: { ...body },
        schema: TestTransportAnswerSchema,
        quiet: true,
      }),
  });
}

/** POST /api/notifications/transport/chats: the chats the bot heard from. */
export function useLookupChats() {
  return useMutation({
    mutationFn: (body: ChatLookup) =>
      apiRequest("POST /api/notifications/transport/chats", {
        body: { ...body },
        schema: ChatLookupAnswerSchema,
        quiet: true,
      }),
  });
}
