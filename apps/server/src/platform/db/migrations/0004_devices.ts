import { type Kysely, sql } from "kysely";

/**
 * Indexes of the device list's sorts, so a page of a sorted list is read off an index with LIMIT
 * instead of sorting the whole domain: never-reported devices sort last in both directions, so the
 * nullable columns need a descending index beside the ascending one (0002 has last_contact
 * ascending and model). Ties are broken by ident, which an incremental sort handles cheaply.
 *
 * The device list's search: one text of everything the search covers (ident, description, model,
 * serial, tags), separated by `|`, which a search may not contain, so a match never spans two
 * fields. On PostgreSQL with pg_trgm a trigram index serves `ILIKE '%text%'` on it; PGlite ships
 * without pg_trgm unless it is loaded, so there the same query scans. The expression must stay
 * identical to DEVICE_SEARCH_TEXT in modules/devices/devices-list.repo.ts, or the index is not used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index devices_domain_last_contact_desc on devices (domain_id, last_contact desc nulls last)`.execute(
    db,
  );
  await sql`create index devices_domain_signal on devices (domain_id, signal_csq)`.execute(db);
  await sql`create index devices_domain_signal_desc on devices (domain_id, signal_csq desc nulls last)`.execute(
    db,
  );
  await sql`create index devices_domain_events on devices (domain_id, events_unread)`.execute(db);
  await sql`create index devices_domain_create_time on devices (domain_id, create_time)`.execute(db);
  await sql`create index devices_domain_firmware on devices (domain_id, firmware)`.execute(db);

  const available = await sql<{ name: string }>`
    select name from pg_available_extensions where name = 'pg_trgm'`.execute(db);
  if (available.rows.length === 0) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index devices_search_trgm on devices using gin ((
    ident || '|' || description || '|' || coalesce(model, '') || '|' || coalesce(serial, '') || '|' || tags::text
  ) gin_trgm_ops)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists devices_search_trgm`.execute(db);
  for (const name of [
    "devices_domain_last_contact_desc",
    "devices_domain_signal",
    "devices_domain_signal_desc",
    "devices_domain_events",
    "devices_domain_create_time",
    "devices_domain_firmware",
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
}
