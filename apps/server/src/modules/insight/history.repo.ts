import { SIGNAL_METRICS, type SignalMetric } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";

/** One bucket of one modem: each metric's min, max and mean (null where nothing was reported). */
export type SignalBucketRow = { modem: string; bucket: number } & {
  [M in SignalMetric as `${M}_min` | `${M}_max` | `${M}_mean`]: number | null;
};

/** Where a signal query reads: samples from `rawFrom` on, hourly rollups before it. */
export interface SignalQuery {
  from: Date;
  to: Date;
  bucketMs: number;
  /** Samples at or after this; rollup hours in [from, rawFrom). rawFrom = from: samples only. */
  rawFrom: Date;
}

/** The name of the rollup's progress mark in history_marks: hours before it are rolled up. */
export const ROLLUP_MARK = "signal-rollup";

// Every metric's min, max, sum and count, from a sample row or from a rollup row, so both sources
// combine in one GROUP BY: a rollup row is already the min, max, sum and count of its hour.
const sampleColumns = sql.raw(
  SIGNAL_METRICS.map(
    (m) => `${m} as ${m}_min, ${m} as ${m}_max, ${m}::float8 as ${m}_sum, (${m} is not null)::int as ${m}_n`,
  ).join(", "),
);
const rollupColumns = sql.raw(SIGNAL_METRICS.map((m) => `${m}_min, ${m}_max, ${m}_sum, ${m}_n`).join(", "));
const combined = sql.raw(
  SIGNAL_METRICS.map(
    (m) =>
      `min(${m}_min) as ${m}_min, max(${m}_max) as ${m}_max, sum(${m}_sum) / nullif(sum(${m}_n), 0) as ${m}_mean`,
  ).join(", "),
);

/**
 * Reads of a device's history (issue 18). Every function takes the domain id first: the device is
 * matched within the domain, so another domain's device answers nothing.
 */
export function historyRepo(db: Kysely<DB>) {
  const ownDevice = (domainId: string, deviceId: string) =>
    sql`(select id from devices where domain_id = ${domainId} and id = ${deviceId})`;
  const ownDevices = (domainId: string, deviceIds: readonly string[]) =>
    sql`(select id from devices where domain_id = ${domainId} and id = any(${deviceIds}::text[]))`;

  return {
    async findDeviceContact(
      domainId: string,
      deviceId: string,
    ): Promise<{ id: string; last_contact: Date | null } | undefined> {
      return db
        .selectFrom("devices")
        .select(["id", "last_contact"])
        .where("domain_id", "=", domainId)
        .where("id", "=", deviceId)
        .executeTakeFirst();
    },

    /**
     * Min, max and mean of each metric per modem and bucket (buckets aligned to the epoch), from
     * samples and rollups together; one pass, ordered by modem and bucket.
     */
    async findSignalBuckets(domainId: string, deviceId: string, q: SignalQuery): Promise<SignalBucketRow[]> {
      const device = ownDevice(domainId, deviceId);
      const bucket = (column: string) =>
        sql`floor(date_part('epoch', ${sql.ref(column)}) * 1000 / ${q.bucketMs}::float8)`;
      const rollups =
        q.rawFrom.getTime() > q.from.getTime()
          ? sql`union all
            select modem, ${bucket("hour")} as bucket, ${rollupColumns}
            from signal_rollups
            where device_id = ${device} and hour >= ${q.from} and hour < ${q.rawFrom}`
          : sql``;
      const result = await sql<SignalBucketRow>`
        select modem, bucket * ${q.bucketMs}::float8 as bucket, ${combined}
        from (
          select modem, ${bucket("time")} as bucket, ${sampleColumns}
          from signal_samples
          where device_id = ${device} and time >= ${q.rawFrom} and time < ${q.to}
          ${rollups}
        ) as u
        group by modem, bucket
        order by modem, bucket`.execute(db);
      return result.rows;
    },

    /** Outages that overlap [from, to), oldest first. */
    async findOutages(
      domainId: string,
      deviceId: string,
      from: Date,
      to: Date,
    ): Promise<Array<{ started: Date; ended: Date }>> {
      return db
        .selectFrom("device_outages")
        .select(["started", "ended"])
        .where("device_id", "=", ownDevice(domainId, deviceId) as never)
        .where("ended", ">", from)
        .where("started", "<", to)
        .orderBy("started")
        .limit(2000)
        .execute();
    },

    async findModemChanges(
      domainId: string,
      deviceId: string,
      from: Date,
      to: Date,
    ): Promise<
      Array<{
        time: Date;
        modem: string;
        changes: Record<string, { from: string | number; to: string | number }>;
      }>
    > {
      return db
        .selectFrom("modem_changes")
        .select(["time", "modem", "changes"])
        .where("device_id", "=", ownDevice(domainId, deviceId) as never)
        .where("time", ">=", from)
        .where("time", "<", to)
        .orderBy("time")
        .limit(1000)
        .execute();
    },

    /** When the router booted: its router_started events, by the router's time. */
    async findReboots(domainId: string, deviceId: string, from: Date, to: Date): Promise<Date[]> {
      const rows = await db
        .selectFrom("events")
        .select(sql<Date>`coalesce(device_time, create_time)`.as("time"))
        .where("domain_id", "=", domainId)
        .where("device_id", "=", deviceId)
        .where("kind", "=", "router_started")
        .where("create_time", ">=", from)
        .where("create_time", "<", to)
        .orderBy("create_time")
        .limit(1000)
        .execute();
      return rows.map((row) => row.time);
    },

    /** Outages of the devices that overlap [from, to), by device, oldest first (uptime reports). */
    async findOutagesOfDevices(
      domainId: string,
      deviceIds: readonly string[],
      from: Date,
      to: Date,
    ): Promise<Array<{ device_id: string; started: Date; ended: Date }>> {
      if (deviceIds.length === 0) return [];
      const result = await sql<{ device_id: string; started: Date; ended: Date }>`
        select device_id, started, ended from device_outages
        where device_id in ${ownDevices(domainId, deviceIds)} and ended > ${from} and started < ${to}
        order by device_id, started`.execute(db);
      return result.rows;
    },

    /**
     * Each metric's mean per device over the query's range, from samples and rollups together (as
     * findSignalBuckets, one bucket the whole range); devices without a report are absent.
     */
    async findSignalMeansOfDevices(
      domainId: string,
      deviceIds: readonly string[],
      q: SignalQuery,
    ): Promise<Array<{ device_id: string; csq_mean: number | null }>> {
      if (deviceIds.length === 0) return [];
      const devices = ownDevices(domainId, deviceIds);
      const result = await sql<{ device_id: string; csq_mean: number | null }>`
        select device_id, ${combined}
        from (
          select device_id, ${sampleColumns}
          from signal_samples
          where device_id in ${devices} and time >= ${q.rawFrom} and time < ${q.to}
          union all
          select device_id, ${rollupColumns}
          from signal_rollups
          where device_id in ${devices} and hour >= ${q.from} and hour < ${q.rawFrom}
        ) as u
        group by device_id`.execute(db);
      return result.rows.map((row) => ({
        device_id: row.device_id,
        csq_mean: row.csq_mean === null ? null : Number(row.csq_mean),
      }));
    },

    /** Every SIM slot change of the devices' modems that history keeps, by device, modem and time. */
    async findSimSlotChangesOfDevices(
      domainId: string,
      deviceIds: readonly string[],
    ): Promise<Array<{ device_id: string; modem: string; time: Date; from: number; to: number }>> {
      if (deviceIds.length === 0) return [];
      const result = await sql<{ device_id: string; modem: string; time: Date; from: unknown; to: unknown }>`
        select device_id, modem, time, changes->'sim'->>'from' as "from", changes->'sim'->>'to' as "to"
        from modem_changes
        where device_id in ${ownDevices(domainId, deviceIds)} and changes->'sim' is not null
        order by device_id, modem, time`.execute(db);
      return result.rows.map((row) => ({ ...row, from: Number(row.from), to: Number(row.to) }));
    },

    /** The earliest moment history knows of the device (a sample, a rollup or an outage), or null. */
    async findFirstKnown(domainId: string, deviceId: string): Promise<Date | null> {
      const device = ownDevice(domainId, deviceId);
      const result = await sql<{ first: Date | null }>`
        select least(
          (select min(time) from signal_samples where device_id = ${device}),
          (select min(hour) from signal_rollups where device_id = ${device}),
          (select min(started) from device_outages where device_id = ${device})) as first`.execute(db);
      return result.rows[0]?.first ?? null;
    },
  };
}

/** The type of {@link historyRepo}'s answer. */
export type HistoryRepo = ReturnType<typeof historyRepo>;
