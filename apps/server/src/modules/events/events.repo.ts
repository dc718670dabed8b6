import { type Kysely, sql } from "kysely";
import type { DB, EventRow } from "../../platform/db/schema";

/** What the event lists filter by. */
export interface EventFilter {
  deviceId?: string;
  /** create_time >= from */
  from?: Date;
  /** create_time < to */
  to?: Date;
  isRead?: boolean;
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
  if (filter.from) query = query.where("events.create_time", ">=", filter.from);
  if (filter.to) query = query.where("events.create_time", "<", filter.to);
  if (filter.isRead !== undefined)
    query = query.where(filter.isRead ? readBy(userId) : sql<boolean>`not ${readBy(userId)}`);
  return query;
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
    async countUnreadEvents(domainId: string, userId: string): Promise<number> {
      const row = await db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", "=", domainId)
        .where(sql<boolean>`not ${readBy(userId)}`)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /**
     * Marks events read for one user: the ids, or all of the domain's so far (the watermark moves to
     * the newest id, and the single reads under it go). Answers how many were unread for the user.
     */
    async markEventsReadByUser(
      domainId: string,
      userId: string,
      ids: readonly string[] | null,
    ): Promise<number> {
      if (ids === null) {
        const unread = await this.countUnreadEvents(domainId, userId);
        const newest = await db
          .selectFrom("events")
          .select((eb) => eb.fn.max("id").as("id"))
          .where("domain_id", "=", domainId)
          .executeTakeFirst();
        if (newest?.id == null) return 0;
        await db
          .updateTable("users")
          .set({ events_read_through: String(newest.id) })
          .where("id", "=", userId)
          .where("domain_id", "=", domainId)
          .execute();
        await db
          .deleteFrom("event_reads")
          .where("user_id", "=", userId)
          .where("event_id", "<=", String(newest.id))
          .execute();
        return unread;
      }
      if (ids.length === 0) return 0;
      const rows = await db
        .insertInto("event_reads")
        .columns(["user_id", "event_id"])
        .expression((eb) =>
          eb
            .selectFrom("events")
            .select([sql<string>`${userId}`.as("user_id"), "events.id as event_id"])
            .where("events.domain_id", "=", domainId)
            .where("events.id", "in", ids)
            .where(sql<boolean>`not ${readBy(userId)}`),
        )
        .onConflict((oc) => oc.doNothing())
        .returning("event_id")
        .execute();
      return rows.length;
    },

    /** How many of the ids (decimal strings) are events of the domain. */
    async countEventsByIds(domainId: string, ids: readonly string[]): Promise<number> {
      if (ids.length === 0) return 0;
      const row = await db
        .selectFrom("events")
        .select((eb) => eb.fn.countAll<string>().as("count"))
        .where("domain_id", "=", domainId)
        .where("id", "in", ids)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },

    /** Marks events read (the ids, or all of the domain's when ids is null); answers the devices touched. */
    async markEventsRead(
      domainId: string,
      ids: readonly string[] | null,
    ): Promise<{ updated: number; deviceIds: string[] }> {
      let query = db
        .updateTable("events")
        .set({ is_read: true })
        .where("domain_id", "=", domainId)
        .where("is_read", "=", false);
      if (ids !== null) query = query.where("id", "in", ids);
      const rows = await query.returning("device_id").execute();
      const deviceIds = [
        ...new Set(rows.map((row) => row.device_id).filter((id): id is string => id !== null)),
      ];
      return { updated: rows.length, deviceIds };
    },

    /** Recounts the unread events of devices from the events themselves, so the count never drifts. */
    async recountDeviceUnread(domainId: string, deviceIds: readonly string[]): Promise<void> {
      if (deviceIds.length === 0) return;
      await db
        .updateTable("devices")
        .set({
          events_unread: sql<number>`(select count(*)::int from events
            where events.device_id = devices.id and events.domain_id = devices.domain_id and not events.is_read)`,
        })
        .where("domain_id", "=", domainId)
        .where("id", "in", deviceIds)
        .execute();
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
