import { type Kysely, sql } from "kysely";

/**
 * Event types per domain (spec section 3): a row only for a kind an admin switched, so every kind
 * of the protocol is active until someone turns it off, and a kind added later needs no backfill.
 * Ingest reads the inactive kinds of a batch's domains in the batch's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("event_types")
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("active", "boolean", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("event_types_pkey", ["domain_id", "kind"])
    .execute();
  // Ingest asks only for the switched-off kinds of a few domains.
  await sql`create index event_types_inactive on event_types (domain_id) where not active`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("event_types").execute();
}
