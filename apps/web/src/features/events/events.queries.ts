import { EVENTS_PAGE_SIZE, EventSchema, type EventsRead, type FleetEvent } from "@cellfleet/contract";
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { devicesKeys, eventsKeys } from "../../app/queryKeys";
import { PushLog } from "../../app/realtime/pushLog";
import { getDeviceEvents, getEvents, markEventsRead } from "./events.api";

/**
 * The events list in pages of EVENTS_PAGE_SIZE (2048, spec section 9): a page that came back full
 * means more may exist, so 'load more' asks for the next offset.
 */
export function eventsInfiniteQueryOptions(filter: { unread?: boolean }) {
  return infiniteQueryOptions({
    queryKey: eventsKeys.list(filter),
    queryFn: async ({ pageParam, signal }) => {
      // The first page keeps the events pushed while it was read (new, so unread: in either list).
      const mark = eventPushLog.mark();
      const page = await getEvents({ ...filter, limit: EVENTS_PAGE_SIZE, offset: pageParam }, signal);
      return pageParam === 0 ? prependEvents(page, eventPushLog.since(mark)) : page;
    },
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

/** Adds events that arrived on the socket to the front of a newest-first list, once each. */
export function prependEvents(list: readonly FleetEvent[], incoming: readonly FleetEvent[]): FleetEvent[] {
  const known = new Set(list.map((event) => event._id));
  const fresh = incoming.filter((event) => !known.has(event._id));
  if (fresh.length === 0) return [...list];
  return [...[...fresh].sort((a, b) => b.create_time - a.create_time), ...list];
}

/**
 * The events the socket pushed in the last minute (ADR 035 item 7): the events page records them,
 * and its first page, read while they came, puts them in front of what it read.
 */
export const eventPushLog = new PushLog<FleetEvent>();

/** The events of a socket `alerts` message that parse as events; others are ignored. */
export function eventsOfAlert(message: unknown): FleetEvent[] {
  const content = (message as { content?: unknown })?.content;
  if (!Array.isArray(content)) return [];
  return content.flatMap((item) => {
    const parsed = EventSchema.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}
