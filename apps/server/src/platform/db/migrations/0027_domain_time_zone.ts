import { type Kysely, sql } from "kysely";

/**
 * The domain's time zone (domain settings, ADR 020 "The domain's time zone"): an IANA name, 'UTC'
 * unless an admin chose one. Schedule rules read their times in it, so their own zone goes: a
 * domain that already has rules takes the zone most of its rules used (ties: the first by name),
 * so those rules keep firing at the same moments.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("domains")
    .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
    .execute();
  await sql`update domains set time_zone = (
      select r.time_zone from schedule_rules r where r.domain_id = domains.id
      group by r.time_zone order by count(*) desc, r.time_zone limit 1)
    where exists (select 1 from schedule_rules r where r.domain_id = domains.id)`.execute(db);
  await db.schema.alterTable("schedule_rules").dropColumn("time_zone").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("schedule_rules")
    .addColumn("time_zone", "text", (c) => c.notNull().defaultTo("UTC"))
    .execute();
  await sql`update schedule_rules set time_zone = d.time_zone from domains d where d.id = schedule_rules.domain_id`.execute(
    db,
  );
  await db.schema.alterTable("domains").dropColumn("time_zone").execute();
}
