import { type Kysely, sql } from "kysely";

/**
 * Tag scopes (issue 30, ADR 041): an admin may limit an assistant, a junior or an operator to the
 * routers carrying one of chosen tags, and a person's API token may carry a narrower scope. A JSON
 * array of tags; empty: every router of the domain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("tag_scope", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
  await db.schema
    .alterTable("api_tokens")
    .addColumn("tag_scope", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("api_tokens").dropColumn("tag_scope").execute();
  await db.schema.alterTable("users").dropColumn("tag_scope").execute();
}
