import type { TagScope } from "@cellfleet/contract";
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { likePattern } from "../../platform/db/like";
import { type DB, type NotificationRuleRow, toJsonb } from "../../platform/db/schema";
import { tagsWithinTagScope } from "../../platform/db/tag-scope";

/** A rule that runs: active, not a draft, and with a provider. */
function isLiveRule(eb: ExpressionBuilder<DB, "notification_rules">) {
  return eb.and([eb("active", "=", true), eb("draft", "=", false), eb("transport_id", "is not", null)]);
}

/** A rule with its provider's name and type and its open incidents. */
export type RuleWithTransportRow = NotificationRuleRow & {
  transport_name: string | null;
  transport_type: "telegram" | "webhook" | "smtp" | null;
  open_incidents: number;
};

/** The stored fields of a rule. */
export interface RuleValues {
  name: string;
  active: boolean;
  draft: boolean;
  monitor: string;
  check_delay: number | null;
  variables: Record<string, string>;
  transport_id: string | null;
  filter_tags: string[];
  filter_levels: string[];
  tolerance_minutes: number;
  /** When the rule's timer looks first (null: at once). */
  timer_next_at: Date | null;
}

function toColumns(values: RuleValues) {
  return {
    ...values,
    variables: toJsonb(values.variables),
    filter_tags: toJsonb(values.filter_tags),
    filter_levels: toJsonb(values.filter_levels),
  };
}

/**
 * Notification rules of a domain (null: the superusers' own). The engine's lookups read the live
 * rules of many domains at once (a batch of reports spans domains) and say AcrossDomains.
 */
export function rulesRepo(db: Kysely<DB>, tagScope: TagScope = []) {
  const base = () =>
    db
      .selectFrom("notification_rules as r")
      .leftJoin("notification_transports as t", "t.id", "r.transport_id")
      // A caller limited to tags reads only rules whose routers all lie within them (ADR 041).
      .where(tagsWithinTagScope("r.filter_tags", tagScope))
      .selectAll("r")
      .select(["t.name as transport_name", "t.type as transport_type"])
      .select((eb) =>
        eb
          .selectFrom("notification_incidents as i")
          .select((inner) => inner.fn.countAll<string>().as("n"))
          .whereRef("i.rule_id", "=", "r.id")
          .where("i.state", "in", ["open", "closing"])
          .as("open_incidents"),
      );
  const withCount = <T extends { open_incidents: string | number | null }>(row: T) => ({
    ...row,
    open_incidents: Number(row.open_incidents ?? 0),
  });
  /** The scope's rules whose name, monitor or provider's name matches `search`. */
  const searched = (domainId: string | null, search?: string) => {
    let query = base().where("r.domain_id", domainOp(domainId), domainId);
    if (search) {
      const pattern = likePattern(search);
      query = query.where((eb) =>
        eb.or([
          eb("r.name", "ilike", pattern),
          eb("r.monitor", "ilike", pattern),
          eb("t.name", "ilike", pattern),
        ]),
      );
    }
    return query;
  };

  return {
    /** The scope's rules by name; `search` matches the name, the monitor or the provider's name. */
    async findRules(domainId: string | null, search?: string): Promise<RuleWithTransportRow[]> {
      const rows = await searched(domainId, search).orderBy("r.name").execute();
      return rows.map(withCount);
    },

    /** The page after the rule named `after`, by name, searched as findRules (exports walk by keyset). */
    async findRulesAfter(
      domainId: string | null,
      search: string | undefined,
      after: string | null,
      limit: number,
    ): Promise<RuleWithTransportRow[]> {
      let query = searched(domainId, search);
      if (after !== null) query = query.where("r.name", ">", after);
      const rows = await query.orderBy("r.name").limit(limit).execute();
      return rows.map(withCount);
    },

    /** The card's counts: every rule of the scope, and the active ones. */
    async countRules(domainId: string | null): Promise<{ total: number; active: number }> {
      const row = await db
        .selectFrom("notification_rules")
        .select((eb) => [
          eb.fn.countAll<string>().as("total"),
          sql<string>`count(*) filter (where active and not draft)`.as("active"),
        ])
        .where("domain_id", domainOp(domainId), domainId)
        .where(tagsWithinTagScope("filter_tags", tagScope))
        .executeTakeFirstOrThrow();
      return { total: Number(row.total), active: Number(row.active) };
    },

    async findRule(domainId: string | null, id: string): Promise<RuleWithTransportRow | undefined> {
      const row = await base()
        .where("r.domain_id", domainOp(domainId), domainId)
        .where("r.id", "=", id)
        .executeTakeFirst();
      return row ? withCount(row) : undefined;
    },

    async insertRule(
      domainId: string | null,
      rule: RuleValues & { id: string; author_id: string | null; at: Date },
    ): Promise<void> {
      const { at, ...values } = rule;
      await db
        .insertInto("notification_rules")
        .values({
          ...toColumns(values),
          id: rule.id,
          author_id: rule.author_id,
          domain_id: domainId,
          create_time: at,
          update_time: at,
        })
        .execute();
    },

    /** Answers whether the rule exists in the scope. */
    async updateRule(domainId: string | null, id: string, values: RuleValues, at: Date): Promise<boolean> {
      const result = await db
        .updateTable("notification_rules")
        .set({ ...toColumns(values), update_time: at })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async setRuleActive(domainId: string | null, id: string, active: boolean, at: Date): Promise<boolean> {
      const result = await db
        .updateTable("notification_rules")
        .set({ active, update_time: at })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    async deleteRule(domainId: string | null, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("notification_rules")
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .where(tagsWithinTagScope("filter_tags", tagScope))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** The live (active, not draft, with a provider) rules watching these monitors in these domains. */
    async findLiveRulesAcrossDomains(
      monitors: readonly string[],
      domainIds: ReadonlyArray<string | null>,
    ): Promise<NotificationRuleRow[]> {
      if (monitors.length === 0 || domainIds.length === 0) return [];
      const named = domainIds.filter((id): id is string => id !== null);
      const hasNull = domainIds.includes(null);
      return db
        .selectFrom("notification_rules")
        .selectAll()
        .where("monitor", "in", monitors)
        .where(isLiveRule)
        .where((eb) =>
          eb.or([
            ...(named.length > 0 ? [eb("domain_id", "in", named)] : []),
            ...(hasNull ? [eb("domain_id", "is", null)] : []),
          ]),
        )
        .execute();
    },

    /** Every live rule of a monitor, whatever its domain (the timers look at all of them). */
    async findLiveRulesOfMonitorAcrossDomains(monitor: string): Promise<NotificationRuleRow[]> {
      return db
        .selectFrom("notification_rules")
        .selectAll()
        .where("monitor", "=", monitor)
        .where(isLiveRule)
        .execute();
    },

    /**
     * Claims the live rules of a timer monitor that are due to look (their timer_next_at has come
     * or was never set) and sets the next time to now + check_delay × `unitMs`. One statement, so
     * of two nodes running the timer the same minute, one gets each rule.
     */
    async claimDueTimerRulesAcrossDomains(
      monitor: string,
      now: Date,
      unitMs: number,
    ): Promise<NotificationRuleRow[]> {
      return db
        .updateTable("notification_rules")
        .set({
          timer_next_at: sql<Date>`${now}::timestamptz + (check_delay * ${unitMs}) * interval '1 millisecond'`,
        })
        .where("monitor", "=", monitor)
        .where(isLiveRule)
        .where((eb) => eb.or([eb("timer_next_at", "is", null), eb("timer_next_at", "<=", now)]))
        .returningAll()
        .execute();
    },
  };
}

/** The repo's type. */
export type RulesRepo = ReturnType<typeof rulesRepo>;
