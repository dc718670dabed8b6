import type { Insertable, Kysely, Selectable, Updateable } from "kysely";
import type { DB } from "../../platform/db/schema";
import type { UptimeMailRulesTable } from "../../platform/db/schema-insight";

/** A stored monthly uptime report mail rule. */
export type UptimeMailRuleRow = Selectable<UptimeMailRulesTable>;

/** Monthly uptime report mail rules (Kysely only; every function takes the domain id first). */
export function uptimeMailRepo(db: Kysely<DB>) {
  return {
    async listRules(domainId: string): Promise<UptimeMailRuleRow[]> {
      return db
        .selectFrom("uptime_mail_rules")
        .selectAll()
        .where("domain_id", "=", domainId)
        .orderBy("create_time")
        .orderBy("id")
        .execute();
    },

    async findRule(domainId: string, id: string): Promise<UptimeMailRuleRow | undefined> {
      return db
        .selectFrom("uptime_mail_rules")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .executeTakeFirst();
    },

    /** Locks a rule's row: a firing and an admin's delete take turns. */
    async lockRule(domainId: string, id: string): Promise<UptimeMailRuleRow | undefined> {
      return db
        .selectFrom("uptime_mail_rules")
        .selectAll()
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .forUpdate()
        .executeTakeFirst();
    },

    async insertRule(
      domainId: string,
      row: Omit<Insertable<UptimeMailRulesTable>, "domain_id">,
    ): Promise<void> {
      await db
        .insertInto("uptime_mail_rules")
        .values({ ...row, domain_id: domainId })
        .execute();
    },

    async updateRule(
      domainId: string,
      id: string,
      changes: Omit<Updateable<UptimeMailRulesTable>, "id" | "domain_id">,
    ): Promise<void> {
      await db
        .updateTable("uptime_mail_rules")
        .set(changes)
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .execute();
    },

    /** Deletes a rule; whether there was one. */
    async deleteRule(domainId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("uptime_mail_rules")
        .where("domain_id", "=", domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Active rules of every domain whose mailing is due: the catch-up's look-up. */
    async findDueRulesAcrossDomains(
      now: Date,
      limit: number,
    ): Promise<Array<{ id: string; domain_id: string; next_run: Date }>> {
      const rows = await db
        .selectFrom("uptime_mail_rules")
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
