import { type Kysely, sql } from "kysely";
import { likePattern } from "../../platform/db/like";
import type { DB, DomainRow } from "../../platform/db/schema";

/** A domain with its last session and device counts by status, as the domains list shows it. */
export type DomainWithCounts = DomainRow & { online: number; warning: number; critical: number };

/**
 * The superuser's domains list. Device status is computed here, at query time, from
 * devices.last_contact and each domain's own thresholds (settings.status), with the rule of the
 * contract's computeDeviceStatus: online within the online minutes, warning beyond the pending
 * minutes and within the warning minutes, critical beyond; pending devices (never reported, or
 * within the pending band) are not counted.
 */
export function domainListRepo(db: Kysely<DB>) {
  function selectWithCounts(now: Date) {
    const minutes = (name: string) =>
      sql<number>`coalesce((select (e->>'minutes')::int from jsonb_array_elements(domains.settings->'status') e where e->>'name' = ${name} limit 1), 0)`;
    return db
      .selectFrom("domains")
      .selectAll("domains")
      .select((eb) => [
        eb
          .selectFrom("devices")
          .select(
            sql<number>`count(*) filter (where devices.last_contact >= ${now}::timestamptz - make_interval(mins => ${minutes("online")}))::int`.as(
              "c",
            ),
          )
          .whereRef("devices.domain_id", "=", "domains.id")
          .as("online"),
        eb
          .selectFrom("devices")
          .select(
            sql<number>`count(*) filter (where devices.last_contact < ${now}::timestamptz - make_interval(mins => greatest(${minutes("online")}, ${minutes("pending")})) and devices.last_contact >= ${now}::timestamptz - make_interval(mins => ${minutes("warning")}))::int`.as(
              "c",
            ),
          )
          .whereRef("devices.domain_id", "=", "domains.id")
          .as("warning"),
        eb
          .selectFrom("devices")
          .select(
            sql<number>`count(*) filter (where devices.last_contact < ${now}::timestamptz - make_interval(mins => greatest(${minutes("online")}, ${minutes("pending")}, ${minutes("warning")})))::int`.as(
              "c",
            ),
          )
          .whereRef("devices.domain_id", "=", "domains.id")
          .as("critical"),
      ]);
  }

  function withZeroes(
    row: DomainRow & { online: number | null; warning: number | null; critical: number | null },
  ): DomainWithCounts {
    return {
      ...row,
      online: Number(row.online ?? 0),
      warning: Number(row.warning ?? 0),
      critical: Number(row.critical ?? 0),
    };
  }

  return {
    /** Domains matching `search` over email, full name, manager, name and TIN; sorted by name. */
    async listDomainsAcrossDomains(
      search: string | undefined,
      page: { limit: number; offset: number },
      now: Date,
    ): Promise<{ rows: DomainWithCounts[]; total: number }> {
      const text = search?.trim().toLowerCase();
      const pattern = text ? likePattern(text) : null;
      // The demo domain is listed too (issue 11: root saw "Total: 0" beside it); it stays unchangeable.
      let list = selectWithCounts(now);
      let count = db.selectFrom("domains").select(sql<number>`count(*)::int`.as("total"));
      if (pattern) {
        const filter = sql<boolean>`(lower(domains.name) like ${pattern} or lower(domains.full_name) like ${pattern} or lower(coalesce(domains.email, '')) like ${pattern} or lower(coalesce(domains.manager, '')) like ${pattern} or lower(coalesce(domains.tin, '')) like ${pattern})`;
        list = list.where(filter);
        count = count.where(filter);
      }
      const rows = await list.orderBy("domains.name").limit(page.limit).offset(page.offset).execute();
      const totalRow = await count.executeTakeFirst();
      return { rows: rows.map(withZeroes), total: Number(totalRow?.total ?? 0) };
    },

    /** The page after the domain named `after`, by name, matching `search` as the list does (exports). */
    async listDomainsAfterAcrossDomains(
      search: string | undefined,
      after: string | null,
      limit: number,
      now: Date,
    ): Promise<DomainWithCounts[]> {
      const text = search?.trim().toLowerCase();
      let list = selectWithCounts(now);
      if (text) {
        const pattern = likePattern(text);
        list = list.where(
          sql<boolean>`(lower(domains.name) like ${pattern} or lower(domains.full_name) like ${pattern} or lower(coalesce(domains.email, '')) like ${pattern} or lower(coalesce(domains.manager, '')) like ${pattern} or lower(coalesce(domains.tin, '')) like ${pattern})`,
        );
      }
      if (after !== null) list = list.where("domains.name", ">", after);
      return (await list.orderBy("domains.name").limit(limit).execute()).map(withZeroes);
    },

    /**
     * Every domain's routers by status, all of them and those connected now (GET /metrics): the
     * list's counts, so a router is counted as the list shows it; the rest of `total` are pending.
     */
    async countDevicesByDomainAcrossDomains(now: Date): Promise<
      Array<{
        name: string;
        total: number;
        online: number;
        warning: number;
        critical: number;
        connected: number;
      }>
    > {
      const rows = await selectWithCounts(now)
        .select((eb) => [
          eb
            .selectFrom("devices")
            .select(sql<number>`count(*)::int`.as("c"))
            .whereRef("devices.domain_id", "=", "domains.id")
            .as("total"),
          eb
            .selectFrom("devices")
            .select(sql<number>`count(*) filter (where devices.connected)::int`.as("c"))
            .whereRef("devices.domain_id", "=", "domains.id")
            .as("connected"),
        ])
        .orderBy("domains.name")
        .execute();
      return rows.map((row) => ({
        ...withZeroes(row),
        total: Number(row.total ?? 0),
        connected: Number(row.connected ?? 0),
      }));
    },

    /** One domain with its counts. */
    async findDomainWithCounts(domainId: string, now: Date): Promise<DomainWithCounts | undefined> {
      const row = await selectWithCounts(now).where("domains.id", "=", domainId).executeTakeFirst();
      return row ? withZeroes(row) : undefined;
    },
  };
}
