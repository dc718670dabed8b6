import type { ModemChangeSet } from "@cellfleet/contract";
import { type Kysely, sql } from "kysely";
import { type DB, toJsonb } from "../../platform/db/schema";

/** One modem's radio measurements at one report. */
export interface SignalSampleInsert {
  device_id: string;
  modem: string;
  time: Date;
  rsrp: number | null;
  rsrq: number | null;
  sinr: number | null;
  rssi: number | null;
  csq: number | null;
}

/** Bytes a SIM moved in a router on one day, added to what the day holds. */
export interface SimUsageUpsert {
  domain_id: string;
  iccid: string;
  day: string;
  device_id: string;
  modem: string;
  slot: number;
  rx: number;
  tx: number;
  seen: Date;
}

/** A change of a modem's SIM, operator, band or mode. */
export interface ModemChangeInsert {
  device_id: string;
  time: Date;
  modem: string;
  changes: ModemChangeSet;
}

/** A period without contact. */
export interface OutageInsert {
  device_id: string;
  started: Date;
  ended: Date;
}

/** An hour of a device to roll up again. */
export interface RollupDirtyInsert {
  device_id: string;
  hour: Date;
}

/**
 * Ingest's insight writes (issue 18). A batch holds many domains' devices, so these say
 * AcrossDomains; the rows are found by device id, whose domain the reading repos check.
 * Each is one statement over unnest arrays, like the rest of ingest's writes.
 */
export function ingestInsightRepo(db: Kysely<DB>) {
  return {
    async insertSignalSamplesAcrossDomains(rows: readonly SignalSampleInsert[]): Promise<void> {
      if (rows.length === 0) return;
      const col = <K extends keyof SignalSampleInsert>(key: K) => rows.map((row) => row[key]);
      await sql`
        insert into signal_samples (device_id, modem, time, rsrp, rsrq, sinr, rssi, csq)
        select * from unnest(
          ${col("device_id")}::text[], ${col("modem")}::text[], ${col("time")}::timestamptz[],
          ${col("rsrp")}::real[], ${col("rsrq")}::real[], ${col("sinr")}::real[], ${col("rssi")}::real[],
          ${col("csq")}::smallint[])`.execute(db);
    },

    /** Adds each row's bytes to its SIM's day (rows sorted by key, so concurrent batches lock in one order). */
    async addSimUsageAcrossDomains(rows: readonly SimUsageUpsert[]): Promise<void> {
      if (rows.length === 0) return;
      const key = (row: SimUsageUpsert) =>
        `${row.domain_id}\u0000${row.iccid}\u0000${row.day}\u0000${row.device_id}`;
      const sorted = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
      const col = <K extends keyof SimUsageUpsert>(key: K) => sorted.map((row) => row[key]);
      await sql`
        insert into sim_usage (domain_id, iccid, day, device_id, modem, slot, rx, tx, seen)
        select * from unnest(
          ${col("domain_id")}::text[], ${col("iccid")}::text[], ${col("day")}::date[],
          ${col("device_id")}::text[], ${col("modem")}::text[], ${col("slot")}::smallint[],
          ${col("rx")}::bigint[], ${col("tx")}::bigint[], ${col("seen")}::timestamptz[])
        on conflict (domain_id, iccid, day, device_id) do update set
          rx = sim_usage.rx + excluded.rx, tx = sim_usage.tx + excluded.tx,
          modem = excluded.modem, slot = excluded.slot, seen = greatest(sim_usage.seen, excluded.seen)`.execute(
        db,
      );
    },

    async insertModemChangesAcrossDomains(rows: readonly ModemChangeInsert[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        insert into modem_changes (device_id, time, modem, changes)
        select * from unnest(
          ${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.time)}::timestamptz[],
          ${rows.map((r) => r.modem)}::text[], ${rows.map((r) => toJsonb(r.changes))}::jsonb[])`.execute(db);
    },

    async insertOutagesAcrossDomains(rows: readonly OutageInsert[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        insert into device_outages (device_id, started, ended)
        select * from unnest(
          ${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.started)}::timestamptz[],
          ${rows.map((r) => r.ended)}::timestamptz[])`.execute(db);
    },

    async markRollupDirtyAcrossDomains(rows: readonly RollupDirtyInsert[]): Promise<void> {
      if (rows.length === 0) return;
      await sql`
        insert into signal_rollup_dirty (device_id, hour)
        select * from unnest(${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.hour)}::timestamptz[])
        on conflict do nothing`.execute(db);
    },
  };
}
