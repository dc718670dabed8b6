import { type Kysely, sql } from "kysely";

/**
 * Software (firmware) rules (modules/firmware, ADR 021): root's, so no domain. The fetched file lives
 * in storage under `file_key`; `fetch_generation` moves on each new fetch, so an older fetch that
 * finishes late cannot overwrite a newer one's outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("software_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("models", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("status", "integer", (c) => c.notNull())
    .addColumn("error", "text")
    .addColumn("fetch_generation", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("sync_time", "timestamptz")
    .addColumn("file_key", "text")
    .addColumn("filename", "text")
    .addColumn("size", "bigint")
    .addColumn("sha256", "text")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("software_rules").execute();
}
