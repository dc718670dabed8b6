import type { Kysely } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { likePattern } from "../../platform/db/like";
import { type DB, type NotificationTransportRow, toJsonb } from "../../platform/db/schema";

/** A provider row with how many rules use it. */
export type TransportWithUseRow = NotificationTransportRow & { rule_count: number };

/** What a new provider row holds. */
export interface NewTransport {
  id: string;
  name: string;
  type: NotificationTransportRow["type"];
  settings: Record<string, unknown>;
  sealed: string | null;
  prefix: string;
  language: string;
  at: Date;
}

/** What a provider change writes (the secret only when a new one was given). */
export interface TransportChange {
  name: string;
  settings: Record<string, unknown>;
  sealed?: string | null;
  prefix: string;
  language: string;
  at: Date;
}

/**
 * Notification providers of a domain (null: the superusers' own). The delivery job's outcome
 * functions take the domain id too: the job carries it.
 */
export function transportsRepo(db: Kysely<DB>) {
  const base = (domainId: string | null) =>
    db
      .selectFrom("notification_transports as t")
      .selectAll("t")
      .select((eb) =>
        eb
          .selectFrom("notification_rules as r")
          .select((inner) => inner.fn.countAll<string>().as("n"))
          .whereRef("r.transport_id", "=", "t.id")
          .as("rule_count"),
      )
      .where("t.domain_id", domainOp(domainId), domainId);

  const withCount = (row: NotificationTransportRow & { rule_count: string | number | null }) => ({
    ...row,
    rule_count: Number(row.rule_count ?? 0),
  });

  return {
    /** The domain's providers by name; `search` matches the name. */
    async findTransports(domainId: string | null, search?: string): Promise<TransportWithUseRow[]> {
      let query = base(domainId);
      if (search) query = query.where("t.name", "ilike", likePattern(search));
      const rows = await query.orderBy("t.name").execute();
      return rows.map(withCount);
    },

    async findTransport(domainId: string | null, id: string): Promise<TransportWithUseRow | undefined> {
      const row = await base(domainId).where("t.id", "=", id).executeTakeFirst();
      return row ? withCount(row) : undefined;
    },

    async insertTransport(domainId: string | null, transport: NewTransport): Promise<void> {
      await db
        .insertInto("notification_transports")
        .values({
          id: transport.id,
          domain_id: domainId,
          name: transport.name,
          type: transport.type,
          settings: toJsonb(transport.settings),
          sealed: transport.sealed,
          prefix: transport.prefix,
          language: transport.language,
          create_time: transport.at,
          update_time: transport.at,
        })
        .execute();
    },

    /** Answers whether the provider exists in the domain (and was changed). */
    async updateTransport(domainId: string | null, id: string, change: TransportChange): Promise<boolean> {
      const result = await db
        .updateTable("notification_transports")
        .set({
          name: change.name,
          settings: toJsonb(change.settings),
          ...(change.sealed !== undefined ? { sealed: change.sealed } : {}),
          prefix: change.prefix,
          language: change.language,
          update_time: change.at,
        })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    /** Stores new settings (a Telegram group that became a supergroup has a new chat id). */
    async updateTransportSettings(
      domainId: string | null,
      id: string,
      settings: Record<string, unknown>,
    ): Promise<void> {
      await db
        .updateTable("notification_transports")
        .set({ settings: toJsonb(settings) })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .execute();
    },

    async deleteTransport(domainId: string | null, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("notification_transports")
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** A delivery went out: the failure streak ends. */
    async recordTransportSuccess(domainId: string | null, id: string, at: Date): Promise<void> {
      await db
        .updateTable("notification_transports")
        .set({ failures: 0, last_success_at: at })
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .execute();
    },

    /** An attempt failed: one more in the streak, with the provider's words. */
    async recordTransportFailure(
      domainId: string | null,
      id: string,
      error: string,
      at: Date,
    ): Promise<void> {
      await db
        .updateTable("notification_transports")
        .set((eb) => ({ failures: eb("failures", "+", 1), last_error: error, last_failure_at: at }))
        .where("domain_id", domainOp(domainId), domainId)
        .where("id", "=", id)
        .execute();
    },
  };
}
