import { isWithinTagScope, type TagScope } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { type DB, type NotificationNewsRow, toJsonb } from "../../platform/db/schema";
import { namedRoutersWithinTagScope } from "../../platform/db/tag-scope";

/** A news item with its rule's name. */
export type NewsWithRuleRow = NotificationNewsRow & { rule_name: string | null };

/** In-app notifications of a domain (null: the superusers') and who has seen them. */
export function newsRepo(db: Kysely<DB>) {
  return {
    async insertNews(
      domainId: string | null,
      item: {
        id: string;
        ruleId: string | null;
        level: string;
        title: string;
        text: string;
        deviceIds?: string[] | null;
        at: Date;
      },
    ): Promise<void> {
      await db
        .insertInto("notification_news")
        .values({
          id: item.id,
          domain_id: domainId,
          rule_id: item.ruleId,
          level: item.level,
          title: item.title,
          text: item.text,
          device_ids: item.deviceIds ? toJsonb(item.deviceIds) : null,
          create_time: item.at,
        })
        .execute();
    },

    /** The newest items (of the scope's routers, or about none, for a person limited to tags). */
    async findNews(
      domainId: string | null,
      limit: number,
      tagScope: TagScope = [],
    ): Promise<NewsWithRuleRow[]> {
      return db
        .selectFrom("notification_news as n")
        .leftJoin("notification_rules as r", "r.id", "n.rule_id")
        .selectAll("n")
        .select("r.name as rule_name")
        .where("n.domain_id", domainOp(domainId), domainId)
        .where(namedRoutersWithinTagScope("n.device_ids", tagScope))
        .orderBy("n.create_time", "desc")
        .orderBy("n.id", "desc")
        .limit(limit)
        .execute();
    },

    /** Items after `since` (all without it). */
    async countNewsSince(
      domainId: string | null,
      since: Date | null,
      tagScope: TagScope = [],
    ): Promise<number> {
      let query = db
        .selectFrom("notification_news")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("domain_id", domainOp(domainId), domainId)
        .where(namedRoutersWithinTagScope("notification_news.device_ids", tagScope));
      if (since) query = query.where("create_time", ">", since);
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    /** Up to when a person of the domain has seen the items. */
    async findSeenUntil(domainId: string | null, userId: string): Promise<Date | null> {
      const row = await db
        .selectFrom("notification_news_seen as s")
        .innerJoin("users as u", "u.id", "s.user_id")
        .select("s.seen_until")
        .where("u.domain_id", domainOp(domainId), domainId)
        .where("s.user_id", "=", userId)
        .executeTakeFirst();
      return row?.seen_until ?? null;
    },

    /** A person has seen everything up to `until` (never moves back). */
    async setSeenUntil(domainId: string | null, userId: string, until: Date): Promise<void> {
      const user = await db
        .selectFrom("users")
        .select("id")
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", userId)
        .executeTakeFirst();
      if (!user) return;
      await db
        .insertInto("notification_news_seen")
        .values({ user_id: userId, seen_until: until })
        .onConflict((oc) =>
          oc.column("user_id").doUpdateSet((eb) => ({
            seen_until: eb.fn("greatest", [
              eb.ref("notification_news_seen.seen_until"),
              eb.ref("excluded.seen_until"),
            ]),
          })),
        )
        .execute();
    },

    /**
     * E-mail addresses of the people who get the scope's notifications: its live users with the
     * notification plugin (for superusers' mail providers without a 'to').
     */
    async findAudienceEmails(
      domainId: string | null,
      deviceIds: readonly string[] | null = null,
    ): Promise<string[]> {
      const rows = await db
        .selectFrom("users")
        .select(["email", "plugins", "tag_scope"])
        .where("domain_id", domainOp(domainId), domainId)
        .where("email", "is not", null)
        .where("removed_at", "is", null)
        .where("blocked", "=", false)
        .execute();
      // A person limited to tags (ADR 041) is mailed only what names their routers alone, or none.
      const named =
        deviceIds && deviceIds.length > 0
          ? await db
              .selectFrom("devices")
              .select("tags")
              .where("domain_id", domainOp(domainId), domainId)
              .where("id", "in", deviceIds)
              .execute()
          : [];
      const isGone = named.length < (deviceIds?.length ?? 0);
      const reaches = (scope: string[]) =>
        scope.length === 0 || (!isGone && named.every((device) => isWithinTagScope([scope], device.tags)));
      return rows
        .filter((row) => Array.isArray(row.plugins) && row.plugins.includes("notification"))
        .filter((row) => reaches(row.tag_scope ?? []))
        .map((row) => row.email as string);
    },

    /** Deletes items older than `before` (the hourly cleanup); answers how many. */
    async deleteOldNewsAcrossDomains(before: Date): Promise<number> {
      const result = await db
        .deleteFrom("notification_news")
        .where("create_time", "<", before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
