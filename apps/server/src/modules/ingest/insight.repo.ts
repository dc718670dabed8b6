import type { ModemChangeSet } from "@cellfleet/contract";
import { type Kysely, type RawBuilder, sql } from "kysely";
import { type DB, toJsonb } from "../../platform/db/schema";
import { whereGate } from "./ingest.repo";

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

type Gate = RawBuilder<boolean> | undefined;

const signalSamplesSql = (rows: readonly SignalSampleInsert[], gate: Gate) => {
  const col = <K extends keyof SignalSampleInsert>(key: K) => rows.map((row) => row[key]);
  return sql`
    insert into signal_samples (device_id, modem, time, rsrp, rsrq, sinr, rssi, csq)
    select * from unnest(
      ${col("device_id")}::text[], ${col("modem")}::text[], ${col("time")}::timestamptz[],
      ${col("rsrp")}::real[], ${col("rsrq")}::real[], ${col("sinr")}::real[], ${col("rssi")}::real[],
      ${col("csq")}::smallint[]) ${whereGate(gate)}`;
};

// Rows sorted by key, so concurrent batches lock the same days in one order.
const simUsageSql = (rows: readonly SimUsageUpsert[], gate: Gate) => {
  const key = (row: SimUsageUpsert) =>
    `${row.domain_id}\u0000${row.iccid}\u0000${row.day}\u0000${row.device_id}`;
  const sorted = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  const col = <K extends keyof SimUsageUpsert>(key: K) => sorted.map((row) => row[key]);
  return sql`
    insert into sim_usage (domain_id, iccid, day, device_id, modem, slot, rx, tx, seen)
    select * from unnest(
      ${col("domain_id")}::text[], ${col("iccid")}::text[], ${col("day")}::date[],
      ${col("device_id")}::text[], ${col("modem")}::text[], ${col("slot")}::smallint[],
      ${col("rx")}::bigint[], ${col("tx")}::bigint[], ${col("seen")}::timestamptz[]) ${whereGate(gate)}
    on conflict (domain_id, iccid, day, device_id) do update set
      rx = sim_usage.rx + excluded.rx, tx = sim_usage.tx + excluded.tx,
      modem = excluded.modem, slot = excluded.slot, seen = greatest(sim_usage.seen, excluded.seen)`;
};

const modemChangesSql = (rows: readonly ModemChangeInsert[], gate: Gate) => sql`
  insert into modem_changes (device_id, time, modem, changes)
  select * from unnest(
    ${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.time)}::timestamptz[],
    ${rows.map((r) => r.modem)}::text[], ${rows.map((r) => toJsonb(r.changes))}::jsonb[]) ${whereGate(gate)}`;

const outagesSql = (rows: readonly OutageInsert[], gate: Gate) => sql`
  insert into device_outages (device_id, started, ended)
  select * from unnest(
    ${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.started)}::timestamptz[],
    ${rows.map((r) => r.ended)}::timestamptz[]) ${whereGate(gate)}`;

const rollupDirtySql = (rows: readonly RollupDirtyInsert[], gate: Gate) => sql`
  insert into signal_rollup_dirty (device_id, hour)
  select * from unnest(${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.hour)}::timestamptz[])
  ${whereGate(gate)}
  on conflict do nothing`;

/** A batch's insight rows, as ingest's plan holds them. */
export interface InsightWrites {
  samples: readonly SignalSampleInsert[];
  usage: ReadonlyMap<string, SimUsageUpsert>;
  changes: readonly ModemChangeInsert[];
  outages: readonly OutageInsert[];
  dirty: ReadonlyMap<string, RollupDirtyInsert>;
}

/** The insight writes a batch has, each one statement (only where `gate` holds, if given). */
export function insightWritesSql(insight: InsightWrites, gate?: RawBuilder<boolean>): RawBuilder<unknown>[] {
  const { samples, usage, changes, outages, dirty } = insight;
  return [
    samples.length > 0 ? signalSamplesSql(samples, gate) : null,
    usage.size > 0 ? simUsageSql([...usage.values()], gate) : null,
    changes.length > 0 ? modemChangesSql(changes, gate) : null,
    outages.length > 0 ? outagesSql(outages, gate) : null,
    dirty.size > 0 ? rollupDirtySql([...dirty.values()], gate) : null,
  ].filter((part) => part !== null);
}

/**
 * Ingest's insight writes (issue 18). A batch holds many domains' devices, so these say
 * AcrossDomains; the rows are found by device id, whose domain the reading repos check.
 * Each is one statement over unnest arrays, like the rest of ingest's writes.
 */
export function ingestInsightRepo(db: Kysely<DB>) {
  return {
    /** Writes a batch's insight rows, one statement for each kind it has. */
    async writeInsightAcrossDomains(insight: InsightWrites): Promise<void> {
      for (const part of insightWritesSql(insight)) await part.execute(db);
    },
  };
}
