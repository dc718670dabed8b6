import { type Kysely, sql } from "kysely";

/**
 * The gateway: report seqs on events and history, so a report resent after a reconnect is
 * recognised and stored once; and lease rows, so N server nodes run each periodic job once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("events").addColumn("seq", "bigint").execute();
  // Events are idempotent by (device, seq) (docs/device-protocol.md 5.3); server-raised events have no seq.
  await sql`create unique index events_device_seq on events (device_id, seq) where seq is not null`.execute(
    db,
  );

  await db.schema.alterTable("collect_history").addColumn("seq", "bigint").execute();
  await sql`create unique index collect_history_device_type_seq on collect_history (device_id, type, seq) where seq is not null`.execute(
    db,
  );

  await db.schema
    .createTable("scheduler_leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text")
    .addColumn("expires_at", "timestamptz", (c) => c.notNull().defaultTo(sql`'epoch'::timestamptz`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("scheduler_leases").execute();
  await sql`drop index if exists collect_history_device_type_seq`.execute(db);
  await db.schema.alterTable("collect_history").dropColumn("seq").execute();
  await sql`drop index if exists events_device_seq`.execute(db);
  await db.schema.alterTable("events").dropColumn("seq").execute();
}
