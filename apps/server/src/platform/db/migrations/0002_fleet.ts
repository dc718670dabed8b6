import { type Kysely, sql } from "kysely";

/**
 * The fleet: domain settings, devices, the latest collected state per device and type, the history
 * of what changed, and events.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("domains")
    .addColumn("settings", "jsonb", (c) =>
      c
        .notNull()
        .defaultTo(
          sql`'{"status":[{"name":"online","minutes":15},{"name":"warning","minutes":60}],"backup":{"copies":10},"journal":{"copies":10}}'::jsonb`,
        ),
    )
    .execute();

  await db.schema
    .createTable("devices")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    // MQTT client ids are global, so an ident is unique across domains.
    .addColumn("ident", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("tags", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("aes_key", "text")
    .addColumn("model", "text")
    .addColumn("firmware", "text")
    .addColumn("serial", "text")
    .addColumn("last_contact", "timestamptz")
    // The status the sweep last saw, so it can tell when a device crosses a threshold.
    .addColumn("last_status", "text", (c) => c.notNull().defaultTo("pending"))
    // The highest report seq committed, so a resent report is recognised.
    .addColumn("last_seq", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("events_unread", "integer", (c) => c.notNull().defaultTo(0))
    // Facets denormalised from the main modem at ingest, so filters and counts need no join.
    .addColumn("signal_csq", "smallint")
    .addColumn("network_mode", "text")
    .addColumn("has_backups", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("has_journals", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("meta", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("devices_domain_ident").on("devices").columns(["domain_id", "ident"]).execute();
  await db.schema
    .createIndex("devices_domain_last_contact")
    .on("devices")
    .columns(["domain_id", "last_contact"])
    .execute();
  await db.schema.createIndex("devices_domain_model").on("devices").columns(["domain_id", "model"]).execute();
  await sql`create index devices_tags on devices using gin (tags jsonb_path_ops)`.execute(db);

  await db.schema
    .createTable("device_collects")
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("domain_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("data", "jsonb", (c) => c.notNull())
    .addColumn("seq", "bigint", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("device_collects_pk", ["device_id", "type"])
    .execute();

  await db.schema
    .createTable("collect_history")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("domain_id", "text", (c) => c.notNull())
    .addColumn("device_id", "text", (c) => c.notNull().references("devices.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    // Only what changed since the previous report of this type.
    .addColumn("changes", "jsonb", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("collect_history_device_type_time")
    .on("collect_history")
    .columns(["device_id", "type", "create_time"])
    .execute();

  await db.schema
    .createTable("events")
    .addColumn("id", "bigint", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("device_id", "text", (c) => c.references("devices.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("level", "text", (c) => c.notNull().check(sql`level in ('info', 'warning', 'error', 'alert')`))
    .addColumn("message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("details", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("is_read", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("author_id", "text")
    .addColumn("device_time", "timestamptz")
    .addColumn("create_time", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("events_domain_time")
    .on("events")
    .columns(["domain_id", "create_time"])
    .execute();
  await db.schema
    .createIndex("events_device_time")
    .on("events")
    .columns(["device_id", "create_time"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("events").execute();
  await db.schema.dropTable("collect_history").execute();
  await db.schema.dropTable("device_collects").execute();
  await db.schema.dropTable("devices").execute();
  await db.schema.alterTable("domains").dropColumn("settings").execute();
}
