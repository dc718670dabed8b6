import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";

/**
 * The number of the router's events the viewer has not read (ADR 025): the events counted on it
 * (`devices.events_total`, the same for everyone) less the ones this user has read
 * (`device_event_reads.read_count`; no row: none). For a `devices` row in scope; a router without
 * events costs no lookup.
 */
export function unreadBy(viewerId: string) {
  return sql<number>`(case when devices.events_total = 0 then 0 else devices.events_total - coalesce(
    (select r.read_count from device_event_reads r where r.user_id = ${viewerId} and r.device_id = devices.id), 0) end)`;
}

/** The viewer's unread count as the `events_unread` column of a device DTO row. */
export function unreadColumn(viewerId: string) {
  return unreadBy(viewerId).as("events_unread");
}

/**
 * The device list's rows with the viewer's reads joined (`viewer_reads`): sorting, filtering or
 * counting by the viewer's unread count then reads the user's rows of `device_event_reads` once, in a
 * hash join, instead of looking one up per router and per use (ADR 025, bench/README.md). A query
 * that does not use the count loses the join (a left join on a unique key, nothing read from it).
 */
export function devicesWithViewerReads(db: Kysely<DB>, viewerId: string) {
  return db
    .selectFrom("devices")
    .leftJoin("device_event_reads as viewer_reads", (join) =>
      join.onRef("viewer_reads.device_id", "=", "devices.id").on("viewer_reads.user_id", "=", viewerId),
    );
}

/** The viewer's unread count over {@link devicesWithViewerReads}. */
export const unreadJoined = sql<number>`(devices.events_total - coalesce(viewer_reads.read_count, 0))`;
