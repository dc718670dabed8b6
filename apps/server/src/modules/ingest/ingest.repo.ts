import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DB, DeviceRow, EventRow, StoredDomainSettings } from "../../platform/db/schema";
import { toJsonb } from "../../platform/db/schema";

/** A device as ingest needs it. */
export interface IngestDevice {
  id: string;
  domain_id: string;
  ident: string;
  /** The contact before this batch (read under its lock): a long gap is an outage. */
  last_contact: Date | null;
}

/** A device's numbering as stored: its current and previous epoch and what is added to each's seqs (seq-epochs.ts). */
export interface SeqNumbering {
  id: string;
  ident: string;
  last_seq: number;
  seq_epoch: number | null;
  seq_offset: number;
  seq_prev_epoch: number | null;
  seq_prev_offset: number;
}

/** A locked device with its seq numbering (seq-epochs.ts). */
export type LockedDevice = IngestDevice & SeqNumbering;

/** The stored latest report of one type. */
export interface StoredCollect {
  device_id: string;
  type: string;
  seq: number;
  data: unknown;
}

/** The latest state to upsert for a device and type. */
export interface CollectUpsert {
  device_id: string;
  domain_id: string;
  type: string;
  seq: number;
  data: unknown;
  create_time: Date;
}

/** One row of changes for charts. */
export interface HistoryInsert {
  domain_id: string;
  device_id: string;
  type: string;
  seq: number;
  changes: unknown;
  create_time: Date;
}

/** One device event as reported. */
export interface EventInsert {
  domain_id: string;
  device_id: string;
  seq: number;
  kind: string;
  level: "info" | "warning" | "error" | "alert";
  message: string;
  details: Record<string, unknown>;
  device_time: Date;
  create_time: Date;
  /** True for a kind the domain switched off: stored and listed, but never 'new' (no badge, no notification). */
  is_read?: boolean;
  /** With is_read: read for every user too (the badge is per user), see events.repo's readBy. */
  is_quiet?: boolean;
}

/** What a batch changes on one device row. */
export interface DeviceTouch {
  id: string;
  seq: number;
  model: string | null;
  firmware: string | null;
  serial: string | null;
  /** Whether a modems report came: then signal_csq, network_mode and wan_up take the values below (even null). */
  has_modems: boolean;
  signal_csq: number | null;
  network_mode: string | null;
  wan_up: boolean | null;
  events_added: number;
  /** A hello's command types, comma-separated (null: it named none, so all); read only with a hello (model set). */
  command_types: string | null;
  /** The latest GPS fix of the batch (collect/gps), WGS 84 degrees; null without one. */
  latitude: number | null;
  longitude: number | null;
}

/** Whether a GPS fix may move the router: no admin pinned its position (ADR 045). */
const GPS_MAY_PLACE = sql`d.position_source is distinct from 'admin'`;

/** Only where `gate` holds (a one-statement batch's check, ingest-statement.repo.ts); always without one. */
export const whereGate = (gate?: RawBuilder<boolean>) => (gate ? sql`where ${gate}` : sql``);

/** The upsert of latest states, as a statement of its own or a one-statement batch's part. */
export function upsertCollectsSql(rows: readonly CollectUpsert[], gate?: RawBuilder<boolean>) {
  return sql`
    insert into device_collects (device_id, domain_id, type, data, seq, create_time)
    select * from unnest(
      ${rows.map((r) => r.device_id)}::text[], ${rows.map((r) => r.domain_id)}::text[],
      ${rows.map((r) => r.type)}::text[], ${rows.map((r) => toJsonb(r.data))}::jsonb[],
      ${rows.map((r) => r.seq)}::bigint[], ${rows.map((r) => r.create_time)}::timestamptz[]) ${whereGate(gate)}
    on conflict (device_id, type) do update
      set data = excluded.data, seq = excluded.seq, create_time = excluded.create_time
      where device_collects.seq < excluded.seq`;
}

/** The insert of history rows (a report already in history is skipped). */
export function insertHistorySql(rows: readonly HistoryInsert[], gate?: RawBuilder<boolean>) {
  return sql`
    insert into collect_history (domain_id, device_id, type, seq, changes, create_time)
    select * from unnest(
      ${rows.map((r) => r.domain_id)}::text[], ${rows.map((r) => r.device_id)}::text[],
      ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.seq)}::bigint[],
      ${rows.map((r) => toJsonb(r.changes))}::jsonb[], ${rows.map((r) => r.create_time)}::timestamptz[]) ${whereGate(gate)}
    on conflict (device_id, type, seq) where seq is not null do nothing`;
}

/**
 * The insert of reported events (one already stored, same device and seq, is skipped), answering
 * the rows it wrote; `returning` narrows what it answers.
 */
export function insertEventsSql(
  rows: readonly EventInsert[],
  gate?: RawBuilder<boolean>,
  returning: RawBuilder<unknown> = sql`*`,
) {
  const col = <K extends keyof EventInsert>(key: K) => rows.map((row) => row[key]);
  return sql`
    insert into events (domain_id, device_id, seq, kind, level, message, details, device_time, create_time, is_read, is_quiet)
    select * from unnest(
      ${col("domain_id")}::text[], ${col("device_id")}::text[], ${col("seq")}::bigint[], ${col("kind")}::text[],
      ${col("level")}::text[], ${col("message")}::text[], ${rows.map((row) => toJsonb(row.details))}::jsonb[],
      ${col("device_time")}::timestamptz[], ${col("create_time")}::timestamptz[],
      ${rows.map((row) => row.is_read ?? false)}::boolean[], ${rows.map((row) => row.is_quiet ?? false)}::boolean[])
      ${whereGate(gate)}
    on conflict (device_id, seq) where seq is not null do nothing
    returning ${returning}`;
}

/**
 * The devices' update of touchDevicesAcrossDomains, answering the rows it changed. A router's new
 * events are `events_added` of its touch, or, given `addedFrom`, the `n` of its `device_id` in that
 * part of the same statement (the events a one-statement batch inserts, ingest-statement.repo.ts).
 */
export function touchDevicesSql(
  touches: readonly DeviceTouch[],
  now: Date,
  contactStaleBefore: Date,
  gate?: RawBuilder<boolean>,
  addedFrom?: RawBuilder<unknown>,
) {
  const col = <K extends keyof DeviceTouch>(key: K) => touches.map((touch) => touch[key]);
  return sql<DeviceRow>`
    update devices as d set
      last_contact = ${now},
      last_seq = greatest(d.last_seq, v.seq),
      model = coalesce(v.model, d.model),
      firmware = coalesce(v.firmware, d.firmware),
      serial = coalesce(v.serial, d.serial),
      command_types = case when v.model is not null then v.command_types else d.command_types end,
      signal_csq = case when v.has_modems then v.signal_csq else d.signal_csq end,
      network_mode = case when v.has_modems then v.network_mode else d.network_mode end,
      wan_up = case when v.has_modems then v.wan_up else d.wan_up end,
      events_total = d.events_total + v.events_added,
      -- A GPS fix places the router unless an admin pinned it (ADR 045).
      latitude = case when v.latitude is not null and ${GPS_MAY_PLACE} then v.latitude else d.latitude end,
      longitude = case when v.latitude is not null and ${GPS_MAY_PLACE} then v.longitude else d.longitude end,
      position_source = case when v.latitude is not null and ${GPS_MAY_PLACE} then 'gps' else d.position_source end
    from (
      select u.*, ${addedFrom ? sql`coalesce(a.n, 0)` : sql`u.events_sent`} as events_added
      from unnest(
        ${col("id")}::text[], ${col("seq")}::bigint[], ${col("model")}::text[], ${col("firmware")}::text[],
        ${col("serial")}::text[], ${col("has_modems")}::boolean[], ${col("signal_csq")}::smallint[],
        ${col("network_mode")}::text[], ${col("wan_up")}::boolean[], ${col("events_added")}::integer[],
        ${col("command_types")}::text[], ${col("latitude")}::double precision[], ${col("longitude")}::double precision[]
      ) as u(id, seq, model, firmware, serial, has_modems, signal_csq, network_mode, wan_up, events_sent, command_types, latitude, longitude)
      ${addedFrom ? sql`left join ${addedFrom} a on a.device_id = u.id` : sql``}
    ) as v
    where d.id = v.id and (
      -- Only rows that visibly change: a stale contact time, new events, board data or facets.
      d.last_contact is null or d.last_contact < ${contactStaleBefore}
      or v.events_added > 0
      or (v.model is not null and (v.model, v.firmware, v.serial, v.command_types)
        is distinct from (d.model, d.firmware, d.serial, d.command_types))
      or (v.has_modems and (v.signal_csq, v.network_mode, v.wan_up) is distinct from (d.signal_csq, d.network_mode, d.wan_up))
      or (v.latitude is not null and ${GPS_MAY_PLACE}
        and (v.latitude, v.longitude, 'gps') is distinct from (d.latitude, d.longitude, d.position_source)))
      ${gate ? sql`and ${gate}` : sql``}
    returning d.*`;
}

/**
 * Ingest's queries. Devices are found by ident across domains (an ident is global, like an MQTT client
 * id), and one batch holds the reports of many domains, so every function here says AcrossDomains;
 * each row written carries its device's own domain id.
 */
export function ingestRepo(db: Kysely<DB>) {
  const findDevices = async (idents: readonly string[], isLocked: boolean): Promise<LockedDevice[]> => {
    if (idents.length === 0) return [];
    const rows = await db
      .selectFrom("devices")
      .select(["id", "domain_id", "ident", "last_contact", "last_seq"])
      .select(["seq_epoch", "seq_offset", "seq_prev_epoch", "seq_prev_offset"])
      .where("ident", "in", idents)
      .orderBy("id")
      .$if(isLocked, (query) => query.forUpdate())
      .execute();
    return rows.map((row) => ({
      ...row,
      last_seq: Number(row.last_seq),
      seq_epoch: row.seq_epoch === null ? null : Number(row.seq_epoch),
      seq_offset: Number(row.seq_offset),
      seq_prev_epoch: row.seq_prev_epoch === null ? null : Number(row.seq_prev_epoch),
      seq_prev_offset: Number(row.seq_prev_offset),
    }));
  };
  return {
    /** The device's AES key by ident (idents are global); undefined for an unknown ident. */
    async findDeviceKeyAcrossDomains(ident: string): Promise<{ aes_key: string | null } | undefined> {
      return db.selectFrom("devices").select(["aes_key"]).where("ident", "=", ident).executeTakeFirst();
    },

    /** Locks the devices' rows for the batch (ordered, so two nodes never deadlock) and answers them. */
    async lockDevicesByIdentAcrossDomains(idents: readonly string[]): Promise<LockedDevice[]> {
      return findDevices(idents, true);
    },

    /** The devices as lockDevicesByIdentAcrossDomains answers them, without locking (read before a batch's BEGIN). */
    async findDevicesByIdentAcrossDomains(idents: readonly string[]): Promise<LockedDevice[]> {
      return findDevices(idents, false);
    },

    /** Stores the numbering of devices that started a new seq epoch in the batch. */
    async updateSeqEpochsAcrossDomains(devices: readonly SeqNumbering[]): Promise<void> {
      for (const device of devices) {
        await db
          .updateTable("devices")
          .set({
            seq_epoch: device.seq_epoch,
            seq_offset: device.seq_offset,
            seq_prev_epoch: device.seq_prev_epoch,
            seq_prev_offset: device.seq_prev_offset,
          })
          .where("id", "=", device.id)
          .execute();
      }
    },

    /**
     * The highest seq stored for each device among its latest states and events: the device row's
     * last_seq lags behind them (it is written only when the row visibly changes).
     */
    async findHighestStoredSeqsAcrossDomains(deviceIds: readonly string[]): Promise<Map<string, number>> {
      if (deviceIds.length === 0) return new Map();
      const collects = await db
        .selectFrom("device_collects")
        .select(["device_id"])
        .select((eb) => eb.fn.max("seq").as("seq"))
        .where("device_id", "in", deviceIds)
        .groupBy("device_id")
        .execute();
      const events = await db
        .selectFrom("events")
        .select(["device_id"])
        .select((eb) => eb.fn.max("seq").as("seq"))
        .where("device_id", "in", deviceIds)
        .groupBy("device_id")
        .execute();
      const rows = [...collects, ...events];
      const highest = new Map<string, number>();
      for (const row of rows) {
        if (row.device_id === null || row.seq === null) continue;
        highest.set(row.device_id, Math.max(highest.get(row.device_id) ?? 0, Number(row.seq)));
      }
      return highest;
    },

    /** Seqs of the stored latest states (no data: the service keeps recent data in memory). */
    async findCollectSeqsAcrossDomains(
      deviceIds: readonly string[],
    ): Promise<Array<{ device_id: string; type: string; seq: number }>> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .selectFrom("device_collects")
        .select(["device_id", "type", "seq"])
        .where("device_id", "in", deviceIds)
        .execute();
      return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    },

    /** The stored latest states of some devices (used for the ones not in memory). */
    async findCollectsAcrossDomains(deviceIds: readonly string[]): Promise<StoredCollect[]> {
      if (deviceIds.length === 0) return [];
      const rows = await db
        .selectFrom("device_collects")
        .select(["device_id", "type", "seq", "data"])
        .where("device_id", "in", deviceIds)
        .execute();
      return rows.map((row) => ({ ...row, seq: Number(row.seq) }));
    },

    /**
     * Upserts the latest states in one statement (arrays through unnest, so one parse and no
     * per-row parameters); an older seq never replaces a newer one.
     */
    async upsertCollectsAcrossDomains(rows: readonly CollectUpsert[]): Promise<void> {
      if (rows.length > 0) await upsertCollectsSql(rows).execute(db);
    },

    /** History rows in one statement; a report already in history (same device, type and seq) is skipped. */
    async insertHistoryAcrossDomains(rows: readonly HistoryInsert[]): Promise<void> {
      if (rows.length > 0) await insertHistorySql(rows).execute(db);
    },

    /** The event kinds each of the domains switched off, as `domainId\u0000kind` keys. */
    async findInactiveEventKindsAcrossDomains(domainIds: readonly string[]): Promise<Set<string>> {
      if (domainIds.length === 0) return new Set();
      const rows = await db
        .selectFrom("event_types")
        .select(["domain_id", "kind"])
        .where("domain_id", "in", domainIds)
        .where("active", "=", false)
        .execute();
      return new Set(rows.map((row) => `${row.domain_id}\u0000${row.kind}`));
    },

    /** Inserts events, skipping ones already stored (same device and seq); answers the new rows. */
    async insertEventsAcrossDomains(rows: readonly EventInsert[]): Promise<EventRow[]> {
      if (rows.length === 0) return [];
      return (await insertEventsSql(rows).execute(db)).rows as EventRow[];
    },

    /**
     * One statement for every device of the batch: contact time, facets, board data, unread events.
     * A row is written only when it visibly changes, or when its last_contact is older than
     * `contactStaleBefore` (the plan decides how stale is stale). Answers the rows it changed (the
     * realtime push sends exactly those).
     */
    async touchDevicesAcrossDomains(
      touches: readonly DeviceTouch[],
      now: Date,
      contactStaleBefore: Date,
    ): Promise<DeviceRow[]> {
      if (touches.length === 0) return [];
      return (await touchDevicesSql(touches, now, contactStaleBefore).execute(db)).rows;
    },

    /** The settings of the batch's domains, by domain id (the realtime push needs their thresholds). */
    async findDomainSettingsAcrossDomains(
      domainIds: readonly string[],
    ): Promise<Map<string, StoredDomainSettings>> {
      if (domainIds.length === 0) return new Map();
      const rows = await db
        .selectFrom("domains")
        .select(["id", "settings"])
        .where("id", "in", domainIds)
        .execute();
      return new Map(rows.map((row) => [row.id, row.settings]));
    },
  };
}

/** The type of {@link ingestRepo}'s answer. */
export type IngestRepo = ReturnType<typeof ingestRepo>;
