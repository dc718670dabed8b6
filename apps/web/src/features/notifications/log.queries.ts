import {
  type Delivery,
  DeliveryListAnswerSchema,
  type DeliveryListRequest,
  DeliveryResendAnswerSchema,
  NewsAnswerSchema,
} from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { useRealtime } from "../../app/realtime/useRealtime";
import { notificationsKeys } from "./keys";

/** Deliveries asked for at a time. */
export const DELIVERY_PAGE_SIZE = 100;

/** POST /api/notifications/deliveries: the newest page of the log. */
export function deliveryListQueryOptions(body: Omit<DeliveryListRequest, "limit" | "offset">) {
  return queryOptions({
    queryKey: notificationsKeys.deliveryList(body),
    queryFn: async ({ signal }): Promise<Delivery[]> =>
      (
        await apiRequest("/api/notifications/deliveries", {
          body: { ...body, limit: DELIVERY_PAGE_SIZE },
          schema: DeliveryListAnswerSchema,
          signal,
        })
      ).items,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/notifications/delivery/{id}/resend: a message queued again. */
export function useResendDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/api/notifications/delivery/${encodeURIComponent(id)}/resend`, {
        body: {},
        schema: DeliveryResendAnswerSchema,
      }),
    onSuccess: () => {
      pushInfoMessage({ level: "success", text: notice("success") });
      return queryClient.invalidateQueries({ queryKey: notificationsKeys.deliveries() });
    },
  });
}

/** POST /api/notifications/news: the newest in-app items and the unseen count. */
export function newsQueryOptions() {
  return queryOptions({
    queryKey: notificationsKeys.news(),
    queryFn: ({ signal }) =>
      apiRequest("/api/notifications/news", { body: {}, schema: NewsAnswerSchema, signal }),
  });
}

/** POST /api/notifications/news/seen: everything shown counts as seen. */
export function useMarkNewsSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (until: number) =>
      apiRequest("/api/notifications/news/seen", { body: { until }, schema: NewsAnswerSchema }),
    onSuccess: (answer) => queryClient.setQueryData(notificationsKeys.news(), answer),
  });
}

/** Re-reads the news and the log when the socket says rules sent something (spec section 7). */
export function useNotificationsLive(): void {
  const queryClient = useQueryClient();
  useRealtime("notifications", () => {
    void queryClient.invalidateQueries({ queryKey: notificationsKeys.news() });
    void queryClient.invalidateQueries({ queryKey: notificationsKeys.deliveries() });
  });
}
