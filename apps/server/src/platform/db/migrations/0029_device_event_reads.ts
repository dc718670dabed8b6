import { type Kysely, sql } from "kysely";

/**
 * The device list's event counts per user (ADR 025, issue 11): a router's count is the number of its
 * events the viewer has not read. The shared column becomes the number of events counted on the
 * router (events_total: every event that is not quiet; events are never deleted, so it only grows,
 * and ingest keeps adding to it as before), and each user's read share of it is stored per router
 * (device_event_reads.read_count). The viewer's count is events_total - read_count; a user without a
 * row has read none of the router's events (a new user: everything, as the 'new' badge says).
 *
 * The existing counts are rebuilt from the events themselves: events_total from the events not
 * quiet, and every user's read_count from what events.repo's readBy calls read (up to the user's
 * events_read_through, or one by one in event_reads).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table devices rename column events_unread to events_total`.execute(db);
  await sql`alter index devices_sort_events_unread rename to devices_sort_events_total`.execute(db);
  await sql`update devices set events_total = (select count(*)::int from events e
      where e.device_id = devices.id and e.domain_id = devices.domain_id and not e.is_quiet)`.execute(db);
  await db.schema
    .createTable("device_event_reads")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("read_count", "integer", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_event_reads_pkey", ["user_id", "device_id"])
    .execute();
  // Deleting a router deletes its rows: the cascade looks them up by device.
  await db.schema
    .createIndex("device_event_reads_device")
    .on("device_event_reads")
    .column("device_id")
    .execute();
  await sql`insert into device_event_reads (user_id, device_id, read_count)
    select u.id, e.device_id, count(*)::int
    from users u
    join events e on e.domain_id = u.domain_id and e.device_id is not null and not e.is_quiet
    where e.id <= coalesce(u.events_read_through, 0)
      or exists (select 1 from event_reads r where r.user_id = u.id and r.event_id = e.id)
    group by u.id, e.device_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("device_event_reads").ifExists().execute();
  await sql`alter index devices_sort_events_total rename to devices_sort_events_unread`.execute(db);
  await sql`alter table devices rename column events_total to events_unread`.execute(db);
  await sql`update devices set events_unread = (select count(*)::int from events e
      where e.device_id = devices.id and e.domain_id = devices.domain_id and not e.is_read)`.execute(db);
}
