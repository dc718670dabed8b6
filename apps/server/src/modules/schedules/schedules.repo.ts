import type { ScheduleClass } from "@cellfleet/contract";
import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { ScheduleRulesTable } from "../../platform/db/schema-actions";

/** A stored schedule rule. */
export type ScheduleRuleRow = Selectable<ScheduleRulesTable>;

/** Backup and journal schedule rules (Kysely only; every function takes the domain id first). */
export function schedulesRepo(db: Kysely<DB>) {
  return {
    async listRules(domainId: string): Promise<ScheduleRuleRow[]> {
      return db
        .selectFrom("schedule_rules")
        .selectAll()
        .where("domain_id", "=", domainId)
        .orderBy("type")
        .orderBy("create_time")
        .orderBy("id")
        .execute();
    },

    async findRule(domainId: string, type: ScheduleClass, id: string): Promise<ScheduleRuleRow | undefined> {
      return db
        .selectFrom("schedule_rules")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("type", "=", type)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    /** The ids of the domain's active rules (the time zone's recomputation locks each in turn). */
    async listActiveRuleIds(domainId: string): Promise<Array<{ id: string }>> {
      return db
        .selectFrom("schedule_rules")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("active", "=", true)
        .orderBy("id")
        .execute();
    },

    /** Locks a rule's row: a firing and an admin's save take turns. */
    async lockRule(domainId: string, id: string): Promise<ScheduleRuleRow | undefined> {
      return db
        .selectFrom("schedule_rules")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
    },

    async insertRule(
      domainId: string,
      row: Omit<Insertable<ScheduleRulesTable>, "domain_id">,
    ): Promise<void> {
      await db
        .insertInto("schedule_rules")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    async updateRule(
      domainId: string,
      id: string,
      changes: Omit<Updateable<ScheduleRulesTable>, "id" | "domain_id" | "type">,
    ): Promise<void> {
      await db
        .updateTable("schedule_rules")
        .set(changes)
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /** Active rules of every domain whose occurrence is due: the catch-up's look-up. */
    async findDueRulesAcrossDomains(
      now: Date,
      limit: number,
    ): Promise<Array<{ id: string; domain_id: string; next_run: Date }>> {
      const rows = await db
        .selectFrom("schedule_rules")
        .select(["id", "domain_id", "next_run"])
        .where("active", "=", true)
        .where("next_run", "<=", now)
        .orderBy("next_run")
        .limit(limit)
        .execute();
      return rows.flatMap((row) => (row.next_run ? [{ ...row, next_run: row.next_run }] : []));
    },
  };
}
