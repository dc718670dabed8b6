import { type Kysely, type RawBuilder, sql } from "kysely";
import { type DB, type DeviceRow, type EventRow, toJsonb } from "../../platform/db/schema";
import type { DeviceReportedPayload } from "../../platform/jobs/outbox-events";
import {
  type CollectUpsert,
  type DeviceTouch,
  type EventInsert,
  type HistoryInsert,
  insertEventsSql,
  insertHistorySql,
  type LockedDevice,
  type StoredCollect,
  touchDevicesSql,
  upsertCollectsSql,
} from "./ingest.repo";
import { type InsightWrites, insightWritesSql } from "./insight.repo";

/** A batch's writes worked out before it is sent, and what they were worked out from (ADR 037). */
export interface OneStatementBatch {
  idents: readonly string[];
  /** The devices as read before the statement: the writes hold only if they are still so. */
  devices: readonly LockedDevice[];
  /** The latest states' seqs as read before; null when the plan did not depend on them. */
  stored: readonly StoredCollect[] | null;
  /** Reported events (their kinds' read marks set); the new ones count on their routers. */
  events: readonly EventInsert[];
  /** Routers whose reports opened a new connection (the outbox event's `connected`). */
  connected: readonly string[];
  /**
   * The outbox event `device.reported` as a part of the statement (the platform's jobs.emitSql), or
   * null without subscribers; written when the batch has new events or connections.
   */
  deviceReported:
    | ((payload: RawBuilder<DeviceReportedPayload>, when: RawBuilder<boolean>) => RawBuilder<unknown> | null)
    | null;
  collects: readonly CollectUpsert[];
  history: readonly HistoryInsert[];
  insight: InsightWrites;
  touches: readonly DeviceTouch[];
  now: Date;
  contactStaleBefore: Date;
}

/** The check's answer, the device rows the statement changed and the events it stored (when it held). */
export interface OneStatementResult {
  isWritten: boolean;
  touched: DeviceRow[];
  events: EventRow[];
}

/** The events part answers what the rows are known by; the rest of each row is what was sent. */
const STORED_EVENT = sql`id, device_id, seq, is_quiet`;

/** The batch's events as stored rows, of those the statement inserted (`[id, device_id, seq]`). */
function storedEvents(
  batch: OneStatementBatch,
  inserted: ReadonlyArray<[string, string, string]>,
): EventRow[] {
  const sent = new Map(batch.events.map((event) => [`${event.device_id}\u0000${event.seq}`, event]));
  return inserted.flatMap(([id, deviceId, seq]) => {
    const event = sent.get(`${deviceId}\u0000${seq}`);
    if (!event) return [];
    return [
      {
        ...event,
        id,
        seq,
        author_id: null,
        is_read: event.is_read ?? false,
        is_quiet: event.is_quiet ?? false,
      },
    ];
  });
}

/** Still as read: every device's row (locked now, none locked by another writer) and latest seqs. */
function checkSql(batch: OneStatementBatch) {
  const col = <K extends keyof LockedDevice>(key: K) => batch.devices.map((device) => device[key]);
  const stored = batch.stored ?? [];
  return sql`
    locked as (
      select id, domain_id, ident, last_contact, last_seq, seq_epoch, seq_offset, seq_prev_epoch, seq_prev_offset
      from devices where ident = any(${batch.idents}::text[])
      order by id for update skip locked),
    expected as (
      select * from unnest(
        ${col("id")}::text[], ${col("domain_id")}::text[], ${col("ident")}::text[],
        ${col("last_contact")}::timestamptz[], ${col("last_seq")}::bigint[], ${col("seq_epoch")}::bigint[],
        ${col("seq_offset")}::bigint[], ${col("seq_prev_epoch")}::bigint[], ${col("seq_prev_offset")}::bigint[])
        as e(id, domain_id, ident, last_contact, last_seq, seq_epoch, seq_offset, seq_prev_epoch, seq_prev_offset)),
    stored as (
      select * from unnest(
        ${stored.map((row) => row.device_id)}::text[], ${stored.map((row) => row.type)}::text[],
        ${stored.map((row) => row.seq)}::bigint[]) as s(device_id, type, seq)),
    checked as (
      select not exists (
        select from locked l full join expected e on e.id = l.id
        where l.id is null or e.id is null
          -- Node's dates hold milliseconds.
          or (l.domain_id, l.ident, date_trunc('milliseconds', l.last_contact), l.last_seq, l.seq_epoch,
              l.seq_offset, l.seq_prev_epoch, l.seq_prev_offset)
            is distinct from (e.domain_id, e.ident, e.last_contact, e.last_seq, e.seq_epoch,
              e.seq_offset, e.seq_prev_epoch, e.seq_prev_offset)
      ) and (${batch.stored === null} or not exists (
        select from (select device_id, type, seq from device_collects where device_id = any(${col("id")}::text[])) c
          full join stored s on s.device_id = c.device_id and s.type = c.type
        where c.device_id is null or s.device_id is null or c.seq <> s.seq
      )) as ok)`;
}

/**
 * A batch's whole write as one statement, so PostgreSQL never waits for Node inside it (issue 28).
 * Across domains like the rest of ingest's writes (ingest.repo.ts): each row carries its router's
 * own domain id.
 */
export function ingestStatementRepo(db: Kysely<DB>) {
  return {
    /**
     * Locks the batch's routers' rows, checks them against what the plan was made from, and writes
     * the data-modifying parts (each gated on the check) only if they still are so. A row another
     * writer has locked is skipped, not waited for: the statement's snapshot would not see that
     * writer's rows once it commits, so the batch is then written the transaction's way
     * (ingest.batch.ts).
     */
    async writeBatchAcrossDomains(batch: OneStatementBatch): Promise<OneStatementResult> {
      const gate = sql<boolean>`(select ok from checked)`;
      const hasEvents = batch.events.length > 0;
      const events = hasEvents
        ? [
            sql`ev as (${insertEventsSql(batch.events, gate, STORED_EVENT)})`,
            sql`added as (select device_id, count(*)::integer as n from ev where not is_quiet group by device_id)`,
          ]
        : [];
      // Only unread events are 'new': they count on the device and reach the notification rules.
      const freshIds = hasEvents
        ? sql`coalesce((select jsonb_agg(id::text order by id) from ev where not is_quiet), '[]'::jsonb)`
        : sql`'[]'::jsonb`;
      const hasFresh = hasEvents ? sql`exists (select from ev where not is_quiet)` : sql`false`;
      const outbox = batch.deviceReported?.(
        sql`jsonb_build_object('connected', ${toJsonb(batch.connected)}::jsonb, 'events', ${freshIds})`,
        sql`${gate} and (${batch.connected.length > 0} or ${hasFresh})`,
      );
      const writes: RawBuilder<unknown>[] = [
        ...(batch.collects.length > 0 ? [upsertCollectsSql(batch.collects, gate)] : []),
        ...(batch.history.length > 0 ? [insertHistorySql(batch.history, gate)] : []),
        ...insightWritesSql(batch.insight, gate),
        ...(outbox ? [outbox] : []),
      ];
      const parts = writes.map((write, index) => sql`${sql.raw(`w${index}`)} as (${write})`);
      const touched =
        batch.touches.length > 0
          ? touchDevicesSql(
              batch.touches,
              batch.now,
              batch.contactStaleBefore,
              gate,
              hasEvents ? sql`added` : undefined,
            )
          : sql`select * from devices where false`;
      const inserted = hasEvents
        ? sql`(select coalesce(jsonb_agg(jsonb_build_array(id::text, device_id, seq::text)), '[]'::jsonb) from ev)`
        : sql`'[]'::jsonb`;
      const result = await sql<
        DeviceRow & { is_written: boolean; inserted_events: [string, string, string][] }
      >`
        with ${checkSql(batch)}, ${sql.join([...events, ...parts, sql`touched as (${touched})`])}
        select checked.ok as is_written, ${inserted} as inserted_events, touched.*
        from checked left join touched on true`.execute(db);
      const first = result.rows[0];
      if (first?.is_written !== true) return { isWritten: false, touched: [], events: [] };
      const rows = result.rows.filter((row) => row.id !== null);
      return {
        isWritten: true,
        touched: rows.map(({ is_written: _, inserted_events: __, ...row }) => row as DeviceRow),
        events: storedEvents(batch, first.inserted_events),
      };
    },
  };
}
