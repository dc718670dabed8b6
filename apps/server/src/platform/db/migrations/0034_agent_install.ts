import type { Kysely } from "kysely";

/**
 * The agent's one-line install (issue 25, ADR 034): a link that serves the install script with one
 * router's ident and key, made by a user who may edit the router, valid for minutes and served once.
 * Only the token's SHA-256 is kept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("agent_install_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
  // Deleting a router or a user deletes its links: the cascades look them up by these.
  await db.schema
    .createIndex("agent_install_tokens_device")
    .on("agent_install_tokens")
    .column("device_id")
    .execute();
  await db.schema
    .createIndex("agent_install_tokens_user")
    .on("agent_install_tokens")
    .column("user_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("agent_install_tokens").ifExists().execute();
}
