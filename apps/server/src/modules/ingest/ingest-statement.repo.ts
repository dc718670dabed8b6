import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB, DeviceRow } from "../../platform/db/schema";
import {
  type CollectUpsert,
  type DeviceTouch,
  type HistoryInsert,
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
  collects: readonly CollectUpsert[];
  history: readonly HistoryInsert[];
  insight: InsightWrites;
  touches: readonly DeviceTouch[];
  now: Date;
  contactStaleBefore: Date;
}

/** The check's answer and the device rows the statement changed (when it held). */
export interface OneStatementResult {
  isWritten: boolean;
  touched: DeviceRow[];
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
      const writes: RawBuilder<unknown>[] = [
        ...(batch.collects.length > 0 ? [upsertCollectsSql(batch.collects, gate)] : []),
        ...(batch.history.length > 0 ? [insertHistorySql(batch.history, gate)] : []),
        ...insightWritesSql(batch.insight, gate),
      ];
      const parts = writes.map((write, index) => sql`${sql.raw(`w${index}`)} as (${write})`);
      const touched =
        batch.touches.length > 0
          ? touchDevicesSql(batch.touches, batch.now, batch.contactStaleBefore, gate)
          : sql`select * from devices where false`;
      const result = await sql<DeviceRow & { is_written: boolean }>`
        with ${checkSql(batch)}, ${sql.join([...parts, sql`touched as (${touched})`])}
        select checked.ok as is_written, touched.* from checked left join touched on true`.execute(db);
      const isWritten = result.rows[0]?.is_written === true;
      const rows = isWritten ? result.rows.filter((row) => row.id !== null) : [];
      return { isWritten, touched: rows.map(({ is_written: _, ...row }) => row as DeviceRow) };
    },
  };
}
