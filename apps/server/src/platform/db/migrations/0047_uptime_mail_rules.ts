import { type Kysely, sql } from "kysely";

/**
 * Monthly uptime report mails (issue 31, ADR 044): a rule mails last month's PDF of the domain's
 * routers, or a tag's, to its recipients on the 1st of each month of the domain's time zone. The
 * firing waits for `next_run` like the crontab's rules; the partial index serves the catch-up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("uptime_mail_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("recipients", "jsonb", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull().check(sql`scope in ('domain', 'tag')`))
    .addColumn("tag", "text")
    .addColumn("language", "text", (c) => c.notNull().check(sql`language in ('en', 'ru')`))
    .addColumn("active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("next_run", "timestamptz")
    .addColumn("last_run", "timestamptz")
    .addColumn("last_month", "text")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("uptime_mail_rules_domain")
    .on("uptime_mail_rules")
    .column("domain_id")
    .execute();
  await db.schema
    .createIndex("uptime_mail_rules_due")
    .on("uptime_mail_rules")
    .column("next_run")
    .where(sql.ref("active"), "=", true)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("uptime_mail_rules").ifExists().execute();
}
