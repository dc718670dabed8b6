import {
  type Delivery,
  DeliveryListAnswerSchema,
  type DeliveryListRequest,
  DeliveryResendAnswerSchema,
} from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { notificationsKeys } from "./keys";

/** Deliveries asked for at a time. */
export const DELIVERY_PAGE_SIZE = 100;

/** POST /api/notifications/deliveries: the newest page of the log. */
export function deliveryListQueryOptions(body: Omit<DeliveryListRequest, "limit" | "offset">) {
  return queryOptions({
    queryKey: notificationsKeys.deliveryList(body),
    queryFn: async ({ signal }): Promise<Delivery[]> =>
      (
        await apiRequest("POST /api/notifications/deliveries", {
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
      apiRequest("POST /api/notifications/delivery/{id}/resend", {
        params: { id },
        body: {},
        schema: DeliveryResendAnswerSchema,
      }),
    onSuccess: () => {
      pushInfoMessage({ level: "success", text: notice("success") });
      return queryClient.invalidateQueries({ queryKey: notificationsKeys.deliveries() });
    },
  });
}
