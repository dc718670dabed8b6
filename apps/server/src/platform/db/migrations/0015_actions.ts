import { type Kysely, sql } from "kysely";

/**
 * Actions (modules/actions, ADR 015): commands, one execution per router with its status of the
 * contract's state machine, and custom command types. An execution's id is what the router is sent
 * as the command `id` (docs/device-protocol.md 4.4), so a repeat is recognised by it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("commands")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    // What the router is sent: the built-in type (a custom type travels as shell).
    .addColumn("wire_type", "text", (c) => c.notNull())
    .addColumn("args", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("file_id", "text")
    .addColumn("targets", "jsonb", (c) => c.notNull())
    // Derived from the executions by the contract's commandStatusOf, kept for the list's filter.
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("needs_approval", "boolean", (c) => c.notNull())
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("author_name", "text", (c) => c.notNull())
    .addColumn("author_role", "integer", (c) => c.notNull())
    .addColumn("author_is_junior", "boolean", (c) => c.notNull())
    .addColumn("approver_id", "text")
    .addColumn("approver_name", "text")
    .addColumn("declined_reason", "text")
    .addColumn("delayed_until", "timestamptz")
    .addColumn("run_until", "timestamptz")
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("counts", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create index commands_domain_time on commands (domain_id, create_time desc)`.execute(db);
  // The watchdog's and the approval lapse's look-ups.
  await sql`create index commands_open on commands (status) where status in ('unapproved', 'delayed', 'in_progress')`.execute(
    db,
  );

  await db.schema
    .createTable("command_executions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("command_id", "text", (c) => c.notNull().references("commands.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("code", "integer")
    .addColumn("output", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("progress", "real")
    // Publishes to a connected router without its acknowledgement (MAX_DELIVERY_ATTEMPTS).
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_publish_time", "timestamptz")
    // Order per router: one at a time, oldest first (a bigint sequence, not the clock).
    .addColumn("position", "bigserial", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .addColumn("finish_time", "timestamptz")
    .execute();
  await sql`create index command_executions_command on command_executions (command_id, status)`.execute(db);
  // A router's unfinished executions in order: what the pump sends next.
  await sql`create index command_executions_open on command_executions (device_id, position)
    where status in ('unapproved', 'delayed', 'queued', 'sent', 'in_progress')`.execute(db);
  await sql`create index command_executions_device on command_executions (device_id, create_time desc)`.execute(
    db,
  );

  await db.schema
    .createTable("command_types")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("command", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create unique index command_types_name on command_types (domain_id, lower(type))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("command_types").execute();
  await db.schema.dropTable("command_executions").execute();
  await db.schema.dropTable("commands").execute();
}
