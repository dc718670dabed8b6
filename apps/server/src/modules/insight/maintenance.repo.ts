import { SIGNAL_METRICS } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import type { DB } from "../../platform/db/schema";
import { ROLLUP_MARK } from "./history.repo";

// What the hourly rollup computes per metric, and how a recomputed hour replaces the stored one.
const aggregates = sql.raw(
  SIGNAL_METRICS.map((m) => `min(${m}), max(${m}), sum(${m}::float8), count(${m})`).join(", "),
);
const rollupTargets = sql.raw(SIGNAL_METRICS.map((m) => `${m}_min, ${m}_max, ${m}_sum, ${m}_n`).join(", "));
const overwrite = sql.raw(
  SIGNAL_METRICS.flatMap((m) => [`${m}_min`, `${m}_max`, `${m}_sum`, `${m}_n`])
    .map((column) => `${column} = excluded.${column}`)
    .join(", "),
);
// The hour a sample falls in, independent of the session's time zone (date_trunc is not, for :30 zones).
const sampleHour = sql`to_timestamp(floor(date_part('epoch', s.time) / 3600) * 3600)`;

/** What retention deletes, each older than its own cutoff. */
export interface RetentionCutoffs {
  /** Samples (only those already rolled up) and collect_history. */
  raw: Date;
  /** Rollups, outages, modem changes, SIM usage days, refusals. */
  history: Date;
}

/**
 * The history jobs' statements (ADR 013): they work through every domain's devices in chunks of
 * ids, so those functions say AcrossDomains; the rollup's mark and the gateway's refusals belong to
 * no domain.
 */
export function maintenanceRepo(db: Kysely<DB>) {
  return {
    /** The next chunk of device ids after `after`, in id order. */
    async findDeviceIdsAcrossDomains(after: string, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom("devices")
        .select("id")
        .where("id", ">", after)
        .orderBy("id")
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    async findRollupMark(): Promise<Date | null> {
      const row = await db
        .selectFrom("history_marks")
        .select("at")
        .where("name", "=", ROLLUP_MARK)
        .executeTakeFirst();
      return row?.at ?? null;
    },

    async setRollupMark(at: Date): Promise<void> {
      await db
        .insertInto("history_marks")
        .values({ name: ROLLUP_MARK, at })
        .onConflict((oc) => oc.column("name").doUpdateSet({ at }))
        .execute();
    },

    /** The oldest sample's time, where a first rollup starts. */
    async findOldestSampleAcrossDomains(): Promise<Date | null> {
      const result = await sql<{ first: Date | null }>`select min(time) as first from signal_samples`.execute(
        db,
      );
      return result.rows[0]?.first ?? null;
    },

    /** Rolls the devices' samples of [from, to) up by hour, replacing hours rolled up before. */
    async rollUpHoursAcrossDomains(deviceIds: readonly string[], from: Date, to: Date): Promise<void> {
      if (deviceIds.length === 0) return;
      await sql`
        insert into signal_rollups (device_id, modem, hour, ${rollupTargets})
        select s.device_id, s.modem, ${sampleHour} as hour, ${aggregates}
        from signal_samples s
        where s.device_id = any(${deviceIds}::text[]) and s.time >= ${from} and s.time < ${to}
        group by s.device_id, s.modem, hour
        on conflict (device_id, hour, modem) do update set ${overwrite}`.execute(db);
    },

    /** Hours marked to roll up again that are before `before`, at most `limit`. */
    async findDirtyHoursAcrossDomains(
      before: Date,
      limit: number,
    ): Promise<Array<{ device_id: string; hour: Date }>> {
      return db
        .selectFrom("signal_rollup_dirty")
        .select(["device_id", "hour"])
        .where("hour", "<", before)
        .orderBy("device_id")
        .orderBy("hour")
        .limit(limit)
        .execute();
    },

    /** Rolls the given device hours up again from their samples, then clears their marks. */
    async rollUpDirtyHoursAcrossDomains(
      hours: ReadonlyArray<{ device_id: string; hour: Date }>,
    ): Promise<void> {
      if (hours.length === 0) return;
      const devices = hours.map((h) => h.device_id);
      const starts = hours.map((h) => h.hour);
      await sql`
        insert into signal_rollups (device_id, modem, hour, ${rollupTargets})
        select s.device_id, s.modem, d.hour, ${aggregates}
        from unnest(${devices}::text[], ${starts}::timestamptz[]) as d(device_id, hour)
        join signal_samples s
          on s.device_id = d.device_id and s.time >= d.hour and s.time < d.hour + interval '1 hour'
        group by s.device_id, s.modem, d.hour
        on conflict (device_id, hour, modem) do update set ${overwrite}`.execute(db);
      await sql`
        delete from signal_rollup_dirty
        where (device_id, hour) in (select * from unnest(${devices}::text[], ${starts}::timestamptz[]))`.execute(
        db,
      );
    },

    /** Marks older than the raw cutoff: their samples are gone, there is nothing to roll up again. */
    async deleteStaleDirtyHoursAcrossDomains(before: Date): Promise<void> {
      await db.deleteFrom("signal_rollup_dirty").where("hour", "<", before).execute();
    },

    /** Deletes what retention drops for a chunk of devices; answers the rows deleted. */
    async deleteOldHistoryAcrossDomains(
      deviceIds: readonly string[],
      cutoffs: RetentionCutoffs,
    ): Promise<number> {
      if (deviceIds.length === 0) return 0;
      const ids = sql`any(${deviceIds}::text[])`;
      let deleted = 0;
      const run = async (statement: ReturnType<typeof sql>) => {
        const result = await statement.execute(db);
        deleted += Number(result.numAffectedRows ?? 0);
      };
      await run(sql`delete from signal_samples where device_id = ${ids} and time < ${cutoffs.raw}`);
      await run(sql`delete from collect_history where device_id = ${ids} and create_time < ${cutoffs.raw}`);
      await run(sql`delete from signal_rollups where device_id = ${ids} and hour < ${cutoffs.history}`);
      await run(sql`delete from device_outages where device_id = ${ids} and ended < ${cutoffs.history}`);
      await run(sql`delete from modem_changes where device_id = ${ids} and time < ${cutoffs.history}`);
      await run(sql`delete from sim_usage where device_id = ${ids} and day < ${cutoffs.history}::date`);
      return deleted;
    },

    /** Refusals not repeated since the cutoff (most are of idents nobody created). */
    async deleteOldRefusals(before: Date): Promise<number> {
      const result = await db.deleteFrom("gateway_refusals").where("time", "<", before).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
