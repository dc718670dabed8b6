import { type Kysely, sql } from "kysely";

/**
 * Sign-in abuse (ADR 016): failed sign-ins counted per account for browsers that never signed in
 * as it (users.failed_attempts and blocked_until, and now untrusted_blocked for the policy's
 * permanent count), per browser for those that did (sign_in_devices, the device cookies), and per
 * username for names that do not exist (sign_in_unknown), so a stranger's guesses never lock the
 * owner's browser out and the lockout does not tell which usernames exist.
 *
 * Event read state per user: the events a user read (event_reads) and, for "all read", the newest
 * event id they had seen then (users.events_read_through), so nobody's read clears another's badge.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("untrusted_blocked", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .createTable("sign_in_devices")
    // SHA-256 of the device cookie's value: the cookie itself is never stored.
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("blocked_until", "timestamptz")
    .addColumn("blocked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sign_in_devices_user").on("sign_in_devices").column("user_id").execute();
  await db.schema
    .createTable("sign_in_unknown")
    // SHA-256 of the lowercased username nobody has.
    .addColumn("username_hash", "text", (c) => c.primaryKey())
    .addColumn("failed_attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("blocked_until", "timestamptz")
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create index sign_in_unknown_update on sign_in_unknown (update_time)`.execute(db);
  await db.schema.alterTable("users").addColumn("events_read_through", "bigint").execute();
  await db.schema
    .createTable("event_reads")
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("event_id", "bigint", (c) => c.notNull().references("events.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("event_reads_pkey", ["user_id", "event_id"])
    .execute();
  await db.schema.createIndex("event_reads_event").on("event_reads").column("event_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("event_reads").ifExists().execute();
  await db.schema.alterTable("users").dropColumn("events_read_through").execute();
  await db.schema.dropTable("sign_in_unknown").ifExists().execute();
  await db.schema.dropTable("sign_in_devices").ifExists().execute();
  await db.schema.alterTable("users").dropColumn("untrusted_blocked").execute();
}
