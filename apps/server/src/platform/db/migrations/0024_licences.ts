import type { Kysely } from "kysely";

/**
 * Licences (modules/licences, ADR 022): one row per key root added. `document` and `signature` hold
 * the last licence the vendor signed for this installation and the console verified; a failed
 * refresh records its error and keeps them, so the installation runs on while the service is away.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("licenses")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("key", "text", (c) => c.notNull().unique())
    .addColumn("document", "jsonb")
    .addColumn("signature", "text")
    .addColumn("last_error", "text")
    .addColumn("refreshing", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("check_time", "timestamptz")
    .addColumn("update_time", "timestamptz")
    .addColumn("activation_date", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("licenses").execute();
}
