import { type Kysely, sql } from "kysely";

/**
 * Accounting and security: account blocks and soft removal of users, the audit log of web actions,
 * and the one-time codes sent by e-mail (registration keys, password resets).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    // A temporary block (failed attempts) lasts until this time.
    .addColumn("blocked_until", "timestamptz")
    // Why `blocked` is set: manual, attempts, inactive, expired; null when not blocked.
    .addColumn("block_reason", "text")
    // Removed users keep their row (and username), so the audit log keeps its authors and a
    // removed person signing in hears USER_REMOVED rather than a wrong password.
    .addColumn("removed_at", "timestamptz")
    .execute();

  await db.schema
    .createTable("web_actions")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("domain_id", "text", (c) => c.references("domains.id").onDelete("cascade"))
    .addColumn("author_id", "text")
    .addColumn("author", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('SUCCESS', 'FAILURE')`))
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("client_ip", "text")
    .addColumn("info", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  await db.schema
    .createIndex("web_actions_domain_time")
    .on("web_actions")
    .columns(["domain_id", "create_time desc"])
    .execute();
  await db.schema.createIndex("web_actions_time").on("web_actions").column("create_time desc").execute();

  await db.schema
    .createTable("email_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("purpose", "text", (c) =>
      c.notNull().check(sql`purpose in ('registration', 'password_reset')`),
    )
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    // Only the SHA-256 of a code is stored, as with session tokens.
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("email_codes_email").on("email_codes").columns(["purpose", "email"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("email_codes").execute();
  await db.schema.dropTable("web_actions").execute();
  await db.schema
    .alterTable("users")
    .dropColumn("removed_at")
    .dropColumn("block_reason")
    .dropColumn("blocked_until")
    .execute();
}
