import { sql } from "kysely";

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
