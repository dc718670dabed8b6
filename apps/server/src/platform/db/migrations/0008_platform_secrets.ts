import { type Kysely, sql } from "kysely";

/**
 * Secrets the server makes for itself on its first start (the key that signs device file URLs and
 * seals job payloads). They live in the database, not in a node's memory or disk, so every server
 * node on the same database signs and opens alike without a setting to keep in step.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("platform_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "bytea", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("platform_secrets").execute();
}
