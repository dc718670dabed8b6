import { type Kysely, sql } from "kysely";

/**
 * The device list's page chosen by the viewer's unread counts (ADR 025: the events sort and the
 * with/without events filter) is cut from `(domain_id, events_total, ident)` with the router's id
 * carried in the index, so choosing it reads the index alone (no row of `devices`) joined to the
 * viewer's reads; only the page's own rows are read after (ADR 037, bench/README.md "Listing").
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index devices_sort_events_total_ids on devices (domain_id, events_total, ident) include (id)`.execute(
    db,
  );
  await sql`drop index devices_sort_events_total`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index devices_sort_events_total on devices (domain_id, events_total, ident)`.execute(db);
  await sql`drop index devices_sort_events_total_ids`.execute(db);
}
