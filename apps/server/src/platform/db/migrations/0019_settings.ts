import { type Kysely, sql } from "kysely";

// Literal copies: a migration never changes with the code that came after it.
const NEW_DOMAIN_SETTINGS = {
  status: [
    { name: "online", minutes: 15 },
    { name: "pending", minutes: 15 },
    { name: "warning", minutes: 60 },
  ],
  backup: { copies: 10 },
  journal: { copies: 10 },
};
const OLD_DOMAIN_SETTINGS = {
  status: [
    { name: "online", minutes: 15 },
    { name: "warning", minutes: 60 },
  ],
  backup: { copies: 10 },
  journal: { copies: 10 },
};

/**
 * Pending gets minutes (spec sections 2 and 5: a threshold per status but critical): every domain's
 * settings gain `pending` equal to its `online` minutes, an empty band, so no router changes status
 * until an admin widens it; new domains start the same way (DEFAULT_DOMAIN_SETTINGS).
 *
 * Event types per domain (spec section 3): a row only for a kind an admin switched, so every kind
 * of the protocol is active until someone turns it off, and a kind added later needs no backfill.
 * Ingest reads the inactive kinds of a batch's domains in the batch's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update domains set settings = jsonb_set(settings, '{status}', (settings->'status') || jsonb_build_array(
      jsonb_build_object('name', 'pending', 'minutes', coalesce((
        select (e->>'minutes')::int from jsonb_array_elements(settings->'status') e where e->>'name' = 'online'), 15))))
    where not exists (select 1 from jsonb_array_elements(settings->'status') e where e->>'name' = 'pending')`.execute(
    db,
  );
  await sql`alter table domains alter column settings set default ${sql.lit(JSON.stringify(NEW_DOMAIN_SETTINGS))}::jsonb`.execute(
    db,
  );
  await db.schema
    .createTable("event_types")
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("active", "boolean", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("event_types_pkey", ["domain_id", "kind"])
    .execute();
  // An event raised while its kind was switched off is new to nobody: read for every user (the
  // per-user read state of 0016 counts it read) and for the devices' counts (is_read).
  await db.schema
    .alterTable("events")
    .addColumn("is_quiet", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  // Ingest asks only for the switched-off kinds of a few domains.
  await sql`create index event_types_inactive on event_types (domain_id) where not active`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("event_types").execute();
  await db.schema.alterTable("events").dropColumn("is_quiet").execute();
  await sql`
    update domains set settings = jsonb_set(settings, '{status}', coalesce((
      select jsonb_agg(e) from jsonb_array_elements(settings->'status') e where e->>'name' <> 'pending'), '[]'::jsonb))`.execute(
    db,
  );
  await sql`alter table domains alter column settings set default ${sql.lit(JSON.stringify(OLD_DOMAIN_SETTINGS))}::jsonb`.execute(
    db,
  );
}
