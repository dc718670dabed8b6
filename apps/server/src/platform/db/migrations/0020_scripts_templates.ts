import { type Kysely, sql } from "kysely";

/**
 * Saved scripts and settings templates (modules/scripts, ADR 015): one row each with its latest
 * version, every version kept; a command records the one it used, and each execution the text its
 * router got when a template was rendered for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("scripts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create unique index scripts_name on scripts (domain_id, kind, lower(name)) where not deleted`.execute(
    db,
  );

  await db.schema
    .createTable("script_versions")
    .addColumn("script_id", "text", (c) => c.notNull().references("scripts.id").onDelete("cascade"))
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("var_values", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("author_id", "text", (c) => c.notNull())
    .addColumn("author_name", "text", (c) => c.notNull())
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addPrimaryKeyConstraint("script_versions_pk", ["script_id", "version"])
    .execute();

  await db.schema.alterTable("commands").addColumn("script_id", "text").execute();
  await db.schema.alterTable("commands").addColumn("script_kind", "text").execute();
  await db.schema.alterTable("commands").addColumn("script_name", "text").execute();
  await db.schema.alterTable("commands").addColumn("script_version", "integer").execute();
  await db.schema.alterTable("command_executions").addColumn("rendered", "text").execute();
  // The command types a router's hello named, comma-separated; null when it named none (all of them).
  await db.schema.alterTable("devices").addColumn("command_types", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("devices").dropColumn("command_types").execute();
  await db.schema.alterTable("command_executions").dropColumn("rendered").execute();
  for (const column of ["script_version", "script_name", "script_kind", "script_id"])
    await db.schema.alterTable("commands").dropColumn(column).execute();
  await db.schema.dropTable("script_versions").execute();
  await db.schema.dropTable("scripts").execute();
}
