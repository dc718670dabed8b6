import {
  can,
  EVENTS_PAGE_SIZE,
  EVENTS_REFRESH_MS,
  EventSchema,
  type EventsRead,
  type FleetEvent,
} from "@cellfleet/contract";
import {
  infiniteQueryOptions,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import { useRealtime } from "../../app/realtime/useRealtime";
import { useSession } from "../../app/session/useSession";
import { devicesKeys } from "../devices/keys";
import { getDeviceEvents, getEvents, getUnreadEvents, markEventsRead } from "./events.api";
import { eventsKeys } from "./keys";

/**
 * The events list in pages of EVENTS_PAGE_SIZE (2048, spec section 9): a page that came back full
 * means more may exist, so 'load more' asks for the next offset.
 */
export function eventsInfiniteQueryOptions(filter: { unread?: boolean }) {
  return infiniteQueryOptions({
    queryKey: eventsKeys.list(filter),
    queryFn: ({ pageParam, signal }) =>
      getEvents({ ...filter, limit: EVENTS_PAGE_SIZE, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (lastPage, pages) =>
      lastPage.length >= EVENTS_PAGE_SIZE ? pages.reduce((sum, page) => sum + page.length, 0) : undefined,
  });
}

/** The latest events of one device (its page shows them under the collected data). */
export function deviceEventsQueryOptions(deviceId: string) {
  return queryOptions({
    queryKey: eventsKeys.device(deviceId),
    queryFn: ({ signal }) => getDeviceEvents(deviceId, { limit: 100 }, signal),
  });
}

/** Marks events read; the lists, the badge and the devices' event counts are read again. */
export function useMarkEventsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EventsRead) => markEventsRead(body),
    onSuccess: (result) => {
      queryClient.setQueryData(eventsKeys.unread(), { count: result.unread });
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: eventsKeys.all }),
        queryClient.invalidateQueries({ queryKey: devicesKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: devicesKeys.details() }),
      ]);
    },
  });
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
  const isEnabled = can(user, "events.view") && user?.factory_password === false;
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

/** Adds events that arrived on the socket to the front of a newest-first list, once each. */
export function prependEvents(list: readonly FleetEvent[], incoming: readonly FleetEvent[]): FleetEvent[] {
  const known = new Set(list.map((event) => event._id));
  const fresh = incoming.filter((event) => !known.has(event._id));
  if (fresh.length === 0) return [...list];
  return [...[...fresh].sort((a, b) => b.create_time - a.create_time), ...list];
}

/** The events of a socket `alerts` message that parse as events; others are ignored. */
export function eventsOfAlert(message: unknown): FleetEvent[] {
  const content = (message as { content?: unknown })?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((item) => {
    const parsed = EventSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
