import { z } from "zod";
import { EVENTS_PAGE_SIZE } from "./constants";
import { EVENT_LEVELS } from "./lists";

// Events as the HTTP API and the realtime socket send them (spec sections 3 and 7).

/** An event of a device or a user (spec section 3). `level` is the spec's type/level; `alert` shows as info. */
export const EventSchema = z.object({
  _id: z.string(),
  level: z.enum(EVENT_LEVELS),
  /** One of the protocol's EVENT_KINDS (snake_case), or another kind the server raised. */
  kind: z.string(),
  read: z.boolean(),
  /** The user who caused it (e.g. asked for an action); null for events of devices. */
  author_id: z.string().nullable(),
  message: z.string(),
  /** The device it is about; null for events of users. */
  device: z.object({ _id: z.string(), ident: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
  /** When the router says it happened, ms since the epoch; null for server-side events. */
  device_time: z.number().nullable(),
  /** When it was stored, ms since the epoch. */
  create_time: z.number(),
});
/** An event (named so it does not shadow the DOM `Event`). */
export type FleetEvent = z.infer<typeof EventSchema>;

/**
 * Body of POST /api/events/all and POST /api/events/{dev_id} (admins, assistants, operators).
 * Answer: NDJSON (application/x-ndjson), one {@link Event} per line, newest first; fewer than `limit`
 * lines means nothing more (the page loads more when it got exactly `limit`).
 */
export const EventsRequestSchema = z.object({
  /** Only events created at or after this moment, ms since the epoch. */
  since: z.number().int().min(0).optional(),
  /** Length of the window in ms: from `since` on, or, without `since`, back from now. */
  for: z.number().int().min(1).optional(),
  /** Only unread (true) or only read (false) events. */
  unread: z.boolean().optional(),
  limit: z.number().int().min(1).max(EVENTS_PAGE_SIZE).default(EVENTS_PAGE_SIZE),
  offset: z.number().int().min(0).default(0),
});
/** Body of the event lists. */
export type EventsRequest = z.input<typeof EventsRequestSchema>;
/** Parsed body of the event lists (defaults applied). */
export type EventsQuery = z.output<typeof EventsRequestSchema>;

/**
 * POST /api/events/read → {@link EventsReadResult}: marks the events `ids` read, or every event of
 * the domain with `all: true` (one of them is required: BAD_REQUEST). Unknown or foreign ids:
 * EVENT_NOT_FOUND and nothing changes. Operators may mark read too: reading is not a change of the fleet.
 */
export const EventsReadSchema = z.object({
  ids: z.array(z.string().min(1)).max(EVENTS_PAGE_SIZE).optional(),
  all: z.literal(true).optional(),
});
/** Body of POST /api/events/read. */
export type EventsRead = z.infer<typeof EventsReadSchema>;

/** Answer of POST /api/events/read: how many changed, and the domain's unread count after. */
export const EventsReadResultSchema = z.object({ updated: z.number().int(), unread: z.number().int() });
/** Answer of POST /api/events/read. */
export type EventsReadResult = z.infer<typeof EventsReadResultSchema>;

/** POST /api/events/unread → the domain's unread events, for the menu's 'new' badge. */
export const EventsUnreadSchema = z.object({ count: z.number().int() });
/** Answer of POST /api/events/unread. */
export type EventsUnread = z.infer<typeof EventsUnreadSchema>;
