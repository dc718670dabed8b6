import { type Kysely, sql } from "kysely";

/**
 * Backup and journal schedule rules (modules/schedules, ADR 020): each rule with its next
 * occurrence, and on commands the rule and occurrence that made them, unique together, so an
 * occurrence makes its command once however many nodes fire it. The files a rule's commands bring
 * are kept by the rule's copies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("schedule_rules")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("domain_id", "text", (c) => c.notNull().references("domains.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull().check(sql`type in ('backup', 'journal')`))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("active", "boolean", (c) => c.notNull())
    // { basic, options: { weeks, days }, time } as the contract's ScheduleRegularSchema.
    .addColumn("regular", "jsonb", (c) => c.notNull())
    .addColumn("time_zone", "text", (c) => c.notNull())
    .addColumn("active_for", "text", (c) => c.notNull().check(sql`active_for in ('all', 'group')`))
    .addColumn("tags", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("copies", "integer", (c) => c.notNull().check(sql`copies between 1 and 100`))
    // The occurrence the rule waits for; null while inactive. A firing job fires only this one.
    .addColumn("next_run", "timestamptz")
    .addColumn("last_run", "timestamptz")
    .addColumn("last_command_id", "text")
    .addColumn("create_time", "timestamptz", (c) => c.notNull())
    .addColumn("update_time", "timestamptz", (c) => c.notNull())
    .execute();
  await sql`create index schedule_rules_domain on schedule_rules (domain_id, type, create_time)`.execute(db);
  // The catch-up's look-up of rules whose occurrence is due.
  await sql`create index schedule_rules_due on schedule_rules (next_run) where active`.execute(db);

  await db.schema.alterTable("commands").addColumn("schedule_rule_id", "text").execute();
  await db.schema.alterTable("commands").addColumn("schedule_occurrence", "timestamptz").execute();
  await sql`create unique index commands_schedule_occurrence on commands (schedule_rule_id, schedule_occurrence)
    where schedule_rule_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index commands_schedule_occurrence`.execute(db);
  await db.schema.alterTable("commands").dropColumn("schedule_occurrence").execute();
  await db.schema.alterTable("commands").dropColumn("schedule_rule_id").execute();
  await db.schema.dropTable("schedule_rules").execute();
}
