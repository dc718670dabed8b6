import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { useRealtime } from "../../app/realtime/useRealtime";
import { notificationsKeys } from "./keys";

// The news bell's reads, apart from the delivery log's: the signed-in shell shows the bell on every
// page, and its answers are the server's checked ones (ADR 026), so this module brings no zod.

/** POST /api/notifications/news: the newest in-app items and the unseen count (the shell's bell: ADR 026). */
export function newsQueryOptions() {
  return queryOptions({
    queryKey: notificationsKeys.news(),
    queryFn: ({ signal }) => apiRequest("POST /api/notifications/news", { body: {}, signal }),
  });
}

/** POST /api/notifications/news/seen: everything shown counts as seen. */
export function useMarkNewsSeen() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (until: number) => apiRequest("POST /api/notifications/news/seen", { body: { until } }),
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
