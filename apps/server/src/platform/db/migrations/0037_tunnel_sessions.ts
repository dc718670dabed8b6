import type { Kysely } from "kysely";

/**
 * Remote access (issue 29, ADR 038): one row per session, from its request to its end, so the row
 * is the session's audit (who, router, kind, start, end, bytes each way, why it ended). The router's
 * single-use password is kept only as its SHA-256, with its expiry and when it was used.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("tunnel_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("minutes", "integer", (c) => c.notNull())
    .addColumn("author_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("approver_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("approved_at", "timestamptz")
    .addColumn("opened_at", "timestamptz")
    .addColumn("ended_at", "timestamptz")
    .addColumn("end_reason", "text")
    .addColumn("bytes_up", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("bytes_down", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("node", "text")
    .addColumn("secret_hash", "text")
    .addColumn("secret_expires_at", "timestamptz")
    .addColumn("secret_used_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("tunnel_sessions_domain_state")
    .on("tunnel_sessions")
    .columns(["domain_id", "state"])
    .execute();
  // Deleting a router or a user deletes its sessions: the cascades look them up by these.
  await db.schema.createIndex("tunnel_sessions_device").on("tunnel_sessions").column("device_id").execute();
  await db.schema.createIndex("tunnel_sessions_author").on("tunnel_sessions").column("author_id").execute();
  await db.schema
    .createIndex("tunnel_sessions_approver")
    .on("tunnel_sessions")
    .column("approver_id")
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("tunnel_sessions").ifExists().execute();
}
