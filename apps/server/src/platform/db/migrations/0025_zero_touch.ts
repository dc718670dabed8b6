import { type Kysely, sql } from "kysely";

/**
 * Zero-touch configurations and the adoption list (modules/zerotouch, ADR 023): a configuration's
 * secret is stored sealed (platform/secrets), its key id is public and unique; an adoption row per
 * router ident that presented a valid zero-touch credential its configuration did not match.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("zero_touch_configs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("key_id", "text", (c) => c.notNull().unique())
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("tags", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("template_id", "text")
    .addColumn("models", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("serial_ranges", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("imei_ranges", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("joined", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("author_name", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create unique index zero_touch_configs_name on zero_touch_configs (domain_id, lower(name))`.execute(
    db,
  );

  await db.schema
    .createTable("zero_touch_adoptions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("config_id", "text", (c) => c.references("zero_touch_configs.id").onDelete("set null"))
    .addColumn("ident", "text", (c) => c.notNull().unique())
    .addColumn("model", "text", (c) => c.notNull())
    .addColumn("serial", "text", (c) => c.notNull())
    .addColumn("imei", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("address", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("first_seen", "timestamptz", (c) => c.notNull())
    .addColumn("last_seen", "timestamptz", (c) => c.notNull())
    .addColumn("decided_by", "text")
    .addColumn("decided_time", "timestamptz")
    .addColumn("device_id", "text")
    .execute();
  await db.schema
    .createIndex("zero_touch_adoptions_domain")
    .on("zero_touch_adoptions")
    .columns(["domain_id", "status", "last_seen"])
    .execute();
  // Which configuration a router joined through (null: created by hand).
  await db.schema.alterTable("devices").addColumn("zero_touch_config_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("devices").dropColumn("zero_touch_config_id").execute();
  await db.schema.dropTable("zero_touch_adoptions").execute();
  await db.schema.dropTable("zero_touch_configs").execute();
}
