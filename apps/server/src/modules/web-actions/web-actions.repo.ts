import { type Kysely, sql } from "kysely";
import { domainOp } from "../../platform/db/domain-filter";
import { likePattern } from "../../platform/db/like";
import type { DB } from "../../platform/db/schema";

/** The filter of the audit log: a time window, tag filters and a search. */
export interface WebActionFilter {
  from?: Date;
  until?: Date;
  authors?: string[];
  actions?: string[];
  statuses?: ("SUCCESS" | "FAILURE")[];
  search?: string;
}

/** Reads of the audit log (writes are platform/audit's). */
export function webActionsRepo(db: Kysely<DB>) {
  function select(filter: WebActionFilter, after: string | null = null) {
    let query = db
      .selectFrom("web_actions")
      .leftJoin("domains", "domains.id", "web_actions.domain_id")
      .selectAll("web_actions")
      .select("domains.name as domain_name");
    if (filter.from) query = query.where("web_actions.create_time", ">=", filter.from);
    if (filter.until) query = query.where("web_actions.create_time", "<", filter.until);
    if (filter.authors?.length) query = query.where("web_actions.author", "in", filter.authors);
    const actions = filter.actions ?? [];
    if (actions.length > 0)
      query = query.where((eb) =>
        eb.or([eb("web_actions.action", "in", actions), eb("web_actions.kind", "in", actions)]),
      );
    if (filter.statuses?.length) query = query.where("web_actions.status", "in", filter.statuses);
    const search = filter.search?.trim().toLowerCase();
    if (search) {
      const pattern = likePattern(search);
      query = query.where(
        sql<boolean>`(lower(web_actions.author) like ${pattern} or lower(web_actions.action) like ${pattern} or lower(coalesce(web_actions.kind, '')) like ${pattern} or lower(coalesce(web_actions.object->>'name', '')) like ${pattern} or lower(coalesce(web_actions.client_ip, '')) like ${pattern} or lower(web_actions.info::text) like ${pattern})`,
      );
    }
    if (after !== null)
      // The cursor row's own time, read back: a JS Date would cut the stored microseconds.
      query = query.where(
        sql<boolean>`(web_actions.create_time, web_actions.id) < (select c.create_time, c.id from web_actions c where c.id = ${after}::bigint)`,
      );
    return query.orderBy("web_actions.create_time", "desc").orderBy("web_actions.id", "desc");
  }

  return {
    /** A domain's entries, newest first. */
    async listWebActions(domainId: string, filter: WebActionFilter, page: { limit: number; offset: number }) {
      return select(filter)
        .where("web_actions.domain_id", domainOp(domainId), domainId)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },

    /** Every entry of every domain and of the superusers, newest first. */
    async listWebActionsAcrossDomains(filter: WebActionFilter, page: { limit: number; offset: number }) {
      return select(filter).limit(page.limit).offset(page.offset).execute();
    },

    /** The domain's page after the entry `after` (an id), in the same order: exports walk by keyset. */
    async listWebActionsAfter(
      domainId: string,
      filter: WebActionFilter,
      after: string | null,
      limit: number,
    ) {
      return select(filter, after)
        .where("web_actions.domain_id", domainOp(domainId), domainId)
        .limit(limit)
        .execute();
    },

    /** As listWebActionsAfter, over every domain and the superusers. */
    async listWebActionsAfterAcrossDomains(filter: WebActionFilter, after: string | null, limit: number) {
      return select(filter, after).limit(limit).execute();
    },
  };
}

/** A row of the audit log as the repo reads it. */
export type WebActionRow = Awaited<ReturnType<ReturnType<typeof webActionsRepo>["listWebActions"]>>[number];
