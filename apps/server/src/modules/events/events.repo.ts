import type { TagScope } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB, EventRow } from "../../platform/db/schema";
import { rowRouterWithinTagScope, tagScopeCondition } from "../../platform/db/tag-scope";

/** What the event lists filter by. */
export interface EventFilter {
  deviceId?: string;
  /** create_time >= from */
  from?: Date;
  /** create_time < to */
  to?: Date;
  isRead?: boolean;
  /** The reader's tag scope (ADR 041): only events of routers within it (none of no router). */
  tagScope?: TagScope;
}

/** An event row with its device's ident, when it has a device, and whether the reader read it. */
export type EventWithDeviceRow = EventRow & { device_ident: string | null; read_by_me: boolean };

/**
 * Whether `userId` read the event: one by one (event_reads), or all up to `events_read_through`; an
 * event raised while its kind was switched off (is_quiet, settings' event types) is read by everyone.
 */
function readBy(userId: string) {
  return sql<boolean>`(events.is_quiet or events.id <= coalesce((select u.events_read_through from users u where u.id = ${userId}), 0)
    or exists (select 1 from event_reads r where r.user_id = ${userId} and r.event_id = events.id))`;
}

function selectEvents(db: Kysely<DB>, domainId: string, userId: string, filter: EventFilter) {
  let query = db
    .selectFrom("events")
    .leftJoin("devices", (join) =>
      join.onRef("devices.id", "=", "events.device_id").on("devices.domain_id", "=", domainId),
    )
    .selectAll("events")
    .select("devices.ident as device_ident")
    .select(readBy(userId).as("read_by_me"))
    .where("events.domain_id", "=", domainId);
  if (filter.deviceId !== undefined) query = query.where("events.device_id", "=", filter.deviceId);
  if (filter.tagScope && filter.tagScope.length > 0)
    query = query.where(tagScopeCondition("devices.tags", filter.tagScope));
  if (filter.from) query = query.where("events.create_time", ">=", filter.from);
  if (filter.to) query = query.where("events.create_time", "<", filter.to);
  if (filter.isRead !== undefined)
    query = query.where(filter.isRead ? readBy(userId) : sql<boolean>`not ${readBy(userId)}`);
  return query;
}

/**
 * "All read" for one user, in one statement so one snapshot: the watermark moves to the domain's
 * newest event, and the user's read share of every router becomes the router's whole count, which in
 * that snapshot is exactly its events up to the watermark (events and the count are written in one
 * transaction). Answers the watermark, null when the domain has no events.
 */
async function markAllRead(db: Kysely<DB>, domainId: string, userId: string): Promise<string | null> {
  const result = await sql<{ newest: string | null }>`
    with newest as (select max(id) as id from events where domain_id = ${domainId}),
    watermark as (
      update users set events_read_through = (select id from newest)
      where id = ${userId} and domain_id = ${domainId} and (select id from newest) is not null),
    shares as (
      insert into device_event_reads (user_id, device_id, read_count)
      select ${userId}, devices.id, devices.events_total from devices
      where devices.domain_id = ${domainId} and devices.events_total > 0
      on conflict (user_id, device_id) do update set read_count = excluded.read_count
      where device_event_reads.read_count <> excluded.read_count)
    select id::text as newest from newest`.execute(db);
  return result.rows[0]?.newest ?? null;
}

function newestFirst(query: ReturnType<typeof selectEvents>) {
  return query.orderBy("events.create_time", "desc").orderBy("events.id", "desc");
}

/** Events of one domain: every function takes the domain id first and filters by it. */
export function eventsRepo(db: Kysely<DB>) {
  return {
    /** Newest first (ties by id, newest first), so offsets page stably. */
    async findEvents(
      domainId: string,
      userId: string,
      filter: EventFilter,
      limit: number,
      offset: number,
    ): Promise<EventWithDeviceRow[]> {
      return newestFirst(selectEvents(db, domainId, userId, filter))
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** The page after the event `after` (an id) in the same order: an export walks by keyset, not offsets. */
    async findEventsAfter(
      domainId: string,
      userId: string,
      filter: EventFilter,
      after: string | null,
      limit: number,
    ): Promise<EventWithDeviceRow[]> {
      let query = selectEvents(db, domainId, userId, filter);
      if (after)
        query = query.where(
          // The cursor row's own time, read back: a JS Date would cut the stored microseconds.
          sql<boolean>`(events.create_time, events.id) < (select c.create_time, c.id from events c where c.domain_id = ${domainId} and c.id = ${after}::bigint)`,
        );
      return newestFirst(query).limit(limit).execute();
    },

    /** The events of the domain `userId` has not read (the 'new' badge is per user). */
    async countUnreadEvents(domainId: string, userId: string, tagScope: TagScope): Promise<number> {
      const row = await db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", "=", domainId)
        .where(sql<boolean>`not ${readBy(userId)}`)
        .$if(tagScope.length > 0, (q) => q.where(rowRouterWithinTagScope("events", tagScope)))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Marks events read for one user: the ids, or all of the domain's so far (the watermark moves to
     * the newest id, and the single reads under it go). The user's read share of each router's count
     * moves with them (device_event_reads, ADR 025); no one else's. Answers how many were unread for
     * the user.
     */
    async markEventsReadByUser(
      domainId: string,
      userId: string,
      ids: readonly string[] | null,
      tagScope: TagScope = [],
    ): Promise<number> {
      if (ids === null) {
        // How many the caller could see unread: those of routers outside their tags are not counted.
        const unread = await this.countUnreadEvents(domainId, userId, tagScope);
        const newest = await markAllRead(db, domainId, userId);
        if (newest === null) return 0;
        await db
          .deleteFrom("event_reads")
          .where("user_id", "=", userId)
          .where("event_id", "<=", newest)
          .execute();
        return unread;
      }
      if (ids.length === 0) return 0;
      // The reads and the routers' shares in one statement: an event read twice at once counts once
      // (the second insert meets the first's row and returns nothing).
      const result = await sql<{ updated: number }>`
        with marked as (
          insert into event_reads (user_id, event_id)
          select ${userId}, events.id from events
          where events.domain_id = ${domainId} and events.id in (${sql.join(ids.map((id) => sql`${id}::bigint`))})
            and not ${readBy(userId)}
          on conflict do nothing
          returning event_id),
        shares as (
          insert into device_event_reads (user_id, device_id, read_count)
          select ${userId}, e.device_id, count(*)::int from marked join events e on e.id = marked.event_id
          where e.device_id is not null
          group by e.device_id
          on conflict (user_id, device_id)
          do update set read_count = device_event_reads.read_count + excluded.read_count)
        select count(*)::int as updated from marked`.execute(db);
      return result.rows[0]?.updated ?? 0;
    },

    /** How many of the ids (decimal strings) are events of the domain (of routers within the tag scope). */
    async countEventsByIds(
      domainId: string,
      ids: readonly string[],
      tagScope: TagScope = [],
    ): Promise<number> {
      if (ids.length === 0) return 0;
      const row = await db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", "=", domainId)
        .where("id", "in", ids)
        .$if(tagScope.length > 0, (q) => q.where(rowRouterWithinTagScope("events", tagScope)))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    async isDeviceInDomain(domainId: string, deviceId: string): Promise<boolean> {
      const row = await db
        .selectFrom("devices")
        .select("id")
        .where("domain_id", "=", domainId)
        .where("id", "=", deviceId)
        .executeTakeFirst();
      return row !== undefined;
    },
  };
}
