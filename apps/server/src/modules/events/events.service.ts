import {
  CSV_EXPORT_CHUNK,
  type EventsQuery,
  type EventsRead,
  type EventsReadResult,
  type FleetEvent,
} from "@cellfleet/contract";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import { domainTopic } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { requireDeviceDomain, requireDeviceView } from "../devices/devices.service";
import { listCountCache } from "../devices/list-count-cache";
import { toEventDto } from "./events.mapper";
import { type EventFilter, eventsRepo } from "./events.repo";

/** Rows fetched per round trip while streaming an event list. */
const STREAM_CHUNK = 512;

/** Event ids are bigint identities; anything else cannot be one of ours. */
const EVENT_ID_PATTERN = /^[1-9]\d{0,17}$/;

function toFilter(query: EventsQuery, now: Date): EventFilter {
  if (query.since !== undefined) {
    return {
      from: new Date(query.since),
      to: query.for !== undefined ? new Date(query.since + query.for) : undefined,
      isRead: query.unread === undefined ? undefined : !query.unread,
    };
  }
  return {
    from: query.for !== undefined ? new Date(now.getTime() - query.for) : undefined,
    isRead: query.unread === undefined ? undefined : !query.unread,
  };
}

async function* streamEvents(
  ctx: AppContext,
  domainId: string,
  userId: string,
  filter: EventFilter,
  query: EventsQuery,
): AsyncGenerator<FleetEvent[]> {
  const repo = eventsRepo(ctx.db);
  let sent = 0;
  while (sent < query.limit) {
    const size = Math.min(STREAM_CHUNK, query.limit - sent);
    const rows = await repo.findEvents(domainId, userId, filter, size, query.offset + sent);
    yield rows.map((row) =>
      toEventDto(
        row,
        row.device_id && row.device_ident ? { id: row.device_id, ident: row.device_ident } : null,
      ),
    );
    sent += rows.length;
    if (rows.length < size) return;
  }
}

/** POST /api/events/all: the domain's events, newest first, in batches of DTOs. */
export async function* listEvents(
  ctx: AppContext,
  session: SessionContext,
  query: EventsQuery,
): AsyncGenerator<FleetEvent[]> {
  const { domainId, tagScope } = requireDeviceView(session);
  yield* streamEvents(ctx, domainId, session.user.id, { ...toFilter(query, ctx.now()), tagScope }, query);
}

/** POST /api/events/{dev_id}: one device's events; another domain's device is DEVICE_NOT_FOUND. */
export async function* listDeviceEvents(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
  query: EventsQuery,
): AsyncGenerator<FleetEvent[]> {
  const domainId = requireDeviceDomain(session);
  if (!(await eventsRepo(ctx.db).isDeviceInDomain(domainId, deviceId)))
    throw new AppError("DEVICE_NOT_FOUND");
  yield* streamEvents(ctx, domainId, session.user.id, { ...toFilter(query, ctx.now()), deviceId }, query);
}

/** POST /api/events/unread: the caller's unread count in the domain, for the 'new' badge (per user). */
export async function countUnreadEvents(
  ctx: AppContext,
  session: SessionContext,
): Promise<{ count: number }> {
  const { domainId, tagScope } = requireDeviceView(session);
  return { count: await eventsRepo(ctx.db).countUnreadEvents(domainId, session.user.id, tagScope) };
}

/**
 * POST /api/events/read: marks events read for the caller only (read state is per user: a
 * view-only operator's reads clear no one else's badge, approval events included), and with them
 * the caller's own event counts of the routers concerned (ADR 025): no one else's. Then the domain's
 * sockets are told, so the caller's other tabs re-read their badge and device counts (others re-read
 * their own, unchanged).
 */
export async function markEventsRead(
  ctx: AppContext,
  session: SessionContext,
  input: EventsRead,
): Promise<EventsReadResult> {
  const domainId = requireDeviceDomain(session);
  const ids = input.all ? null : [...new Set(input.ids ?? [])];
  if (ids !== null && ids.length === 0) throw new AppError("BAD_REQUEST", "Give ids or all: true");
  if (ids?.some((id) => !EVENT_ID_PATTERN.test(id))) throw new AppError("EVENT_NOT_FOUND");
  const tagScope = tagScopeOf(session);
  const updated = await ctx.db.transaction().execute(async (trx) => {
    const repo = eventsRepo(trx);
    // An event of a router outside the caller's tags is not found, as another domain's (ADR 041).
    if (ids !== null && (await repo.countEventsByIds(domainId, ids, tagScope)) !== ids.length) {
      throw new AppError("EVENT_NOT_FOUND");
    }
    return repo.markEventsReadByUser(domainId, session.user.id, ids, tagScope);
  });
  const unread = await eventsRepo(ctx.db).countUnreadEvents(domainId, session.user.id, tagScope);
  if (updated > 0) {
    // The caller's cached list totals and facets counted the events just read.
    listCountCache.invalidate(domainId);
    try {
      await ctx.bus.publish(domainTopic(domainId), { type: "events", action: "read", content: ids ?? [] });
    } catch (error) {
      ctx.log.error({ err: error, domainId }, "publishing an events message failed");
    }
  }
  return { updated, unread };
}

/** Columns of events.csv. */
export const EVENT_CSV_COLUMNS = [
  "create_time",
  "level",
  "kind",
  "device",
  "message",
  "read",
  "device_time",
  "details",
] as const;

/** POST /api/events/export: the list's events for the same filters (limit and offset ignored), a keyset page a yield. */
export async function* exportEventsRows(
  ctx: AppContext,
  session: SessionContext,
  query: EventsQuery,
): AsyncGenerator<CsvCell[][]> {
  const { domainId, tagScope } = requireDeviceView(session);
  const repo = eventsRepo(ctx.db);
  const filter = { ...toFilter(query, ctx.now()), tagScope };
  const pages = keysetPages(
    (after: string | null, limit) => repo.findEventsAfter(domainId, session.user.id, filter, after, limit),
    (row) => String(row.id),
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows.map((row) => [
      row.create_time.toISOString(),
      row.level,
      row.kind,
      row.device_ident,
      row.message,
      row.read_by_me ? "yes" : "no",
      row.device_time === null ? null : row.device_time.toISOString(),
      JSON.stringify(row.details ?? {}),
    ]);
  }
}
