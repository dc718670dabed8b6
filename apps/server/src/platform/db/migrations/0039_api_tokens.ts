import { type Kysely, sql } from "kysely";

/**
 * Personal API tokens (issue 30, ADR 040): a person's named key with an expiry, the actions it
 * carries (a subset of the person's) and the networks it may come from. Only the token's SHA-256 is
 * kept. The audit log names the token a save was made with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("api_tokens")
    .addColumn("id", "text", (c) => c.primaryKey())
    // The person's domain, copied so an admin's list of the domain's tokens is one indexed read;
    // null for a superuser's tokens.
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("permissions", "jsonb", (c) => c.notNull())
    .addColumn("allowed_ips", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("last_used_at", "timestamptz")
    .addColumn("last_used_ip", "text")
    .addColumn("revoked_at", "timestamptz")
    .addColumn("revoked_by", "text")
    .execute();
  await db.schema.createIndex("api_tokens_user").on("api_tokens").column("user_id").execute();
  await db.schema.createIndex("api_tokens_domain").on("api_tokens").column("domain_id").execute();
  await db.schema.alterTable("web_actions").addColumn("via_token", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("web_actions").dropColumn("via_token").execute();
  await db.schema.dropTable("api_tokens").ifExists().execute();
}
