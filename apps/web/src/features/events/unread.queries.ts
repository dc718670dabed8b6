import { can, EVENTS_REFRESH_MS, type EventsUnread, isHeldOnProfile } from "@cellfleet/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { eventsKeys } from "../../app/queryKeys";
import { useRealtime } from "../../app/realtime/useRealtime";
import { useSession } from "../../app/session/useSession";

// The Events menu entry's 'new' badge, apart from the event lists: the signed-in shell shows it on
// every page, so this module brings no zod (ADR 026).

/**
 * POST /api/events/unread: how many of the domain's events the signed-in user has not read (the menu
 * badge; read state is per user, so nobody else's reading clears it). A background
 * poll, so it is quiet: a failure must not raise a message every 30 s (a dead session still logs out).
 * Every signed-in start reads it: the answer is the server's checked one (ADR 026).
 */
export function getUnreadEvents(signal?: AbortSignal): Promise<EventsUnread> {
  return apiRequest("POST /api/events/unread", { body: {}, signal, quiet: true });
}

/**
 * Whether the 'new' badge of the Events menu entry shows: POST /api/events/unread (the user's own
 * unread events: another user's "all read" leaves it lit), re-read every
 * 30 s (spec section 7) for everyone but superusers (who have no events), and at once when the
 * socket brings alerts or notifications. (Open lists add the socket's events themselves.)
 */
export function useHasUnreadEvents(): boolean {
  const user = useSession();
  const queryClient = useQueryClient();
  const isEnabled = can(user, "events.view") && user !== null && !isHeldOnProfile(user);
  const unread = useQuery({
    queryKey: eventsKeys.unread(),
    queryFn: ({ signal }) => getUnreadEvents(signal),
    enabled: isEnabled,
    refetchInterval: EVENTS_REFRESH_MS,
    staleTime: 0,
  });
  const refresh = () => {
    if (!isEnabled) return;
    void queryClient.invalidateQueries({ queryKey: eventsKeys.unread() });
  };
  useRealtime("alerts", refresh);
  useRealtime("notifications", refresh);
  return isEnabled && (unread.data?.count ?? 0) > 0;
}
