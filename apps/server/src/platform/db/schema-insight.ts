import type { ColumnType, Generated } from "kysely";

// The tables of device insight (issue 18, migration 0013_insight, ADR 013), kept apart from
// schema.ts so that file stays readable; DB there lists them.

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** jsonb: read as T, written as a JSON string (see toJsonb in schema.ts). */
type Jsonb<T> = ColumnType<T, string, string>;

/** Radio measurements of one modem at one report (0013_insight). */
export interface SignalSamplesTable {
  device_id: string;
  modem: string;
  time: Timestamp;
  rsrp: number | null;
  rsrq: number | null;
  sinr: number | null;
  rssi: number | null;
  csq: number | null;
}

/** Min, max, sum and count of each metric per modem and hour (0013_insight). */
export interface SignalRollupsTable {
  device_id: string;
  modem: string;
  hour: Timestamp;
  rsrp_min: number | null;
  rsrp_max: number | null;
  rsrp_sum: number | null;
  rsrp_n: Generated<number>;
  rsrq_min: number | null;
  rsrq_max: number | null;
  rsrq_sum: number | null;
  rsrq_n: Generated<number>;
  sinr_min: number | null;
  sinr_max: number | null;
  sinr_sum: number | null;
  sinr_n: Generated<number>;
  rssi_min: number | null;
  rssi_max: number | null;
  rssi_sum: number | null;
  rssi_n: Generated<number>;
  csq_min: number | null;
  csq_max: number | null;
  csq_sum: number | null;
  csq_n: Generated<number>;
}

/** Hours to roll up again: samples came after they were rolled up (0013_insight). */
export interface SignalRollupDirtyTable {
  device_id: string;
  hour: Timestamp;
}

/** Progress of the history jobs, by name (0013_insight). */
export interface HistoryMarksTable {
  name: string;
  at: Timestamp;
}

/** A period without contact (0013_insight). */
export interface DeviceOutagesTable {
  id: ColumnType<string, never, never>;
  device_id: string;
  started: Timestamp;
  ended: Timestamp;
}

/** A change of a modem's SIM, operator, band or mode (0013_insight). */
export interface ModemChangesTable {
  id: ColumnType<string, never, never>;
  device_id: string;
  time: Timestamp;
  modem: string;
  changes: Jsonb<Record<string, { from: string | number; to: string | number }>>;
}

/** Bytes per SIM, UTC day and router (0013_insight); bigint and date read as strings. */
export interface SimUsageTable {
  domain_id: string;
  iccid: string;
  day: ColumnType<string, string, string>;
  device_id: string;
  modem: string;
  slot: number;
  rx: ColumnType<string, string | number, string | number>;
  tx: ColumnType<string, string | number, string | number>;
  seen: Timestamp;
}

/** A SIM's own plan and its last threshold event (0013_insight). */
export interface SimCardsTable {
  domain_id: string;
  iccid: string;
  plan_bytes: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  reset_day: number | null;
  alerted_period: ColumnType<string | null, string | null | undefined, string | null>;
  alerted_percent: Generated<number>;
}

/** The plan of every SIM in a router with the tag (0013_insight). */
export interface TagPlansTable {
  domain_id: string;
  tag: string;
  plan_bytes: ColumnType<string, string | number, string | number>;
  reset_day: number;
}

/** The last refused connection per ident (0013_insight); never the offered password. */
export interface GatewayRefusalsTable {
  ident: string;
  reason: string;
  time: Timestamp;
  address: string | null;
  count: Generated<number>;
}

/** One-time links of the agent's one-line install (0034_agent_install, docs/adr/034). */
export interface AgentInstallTokensTable {
  /** SHA-256 of the token (hex): the token itself is only in the link the console answered once. */
  token_hash: string;
  domain_id: string;
  device_id: string;
  /** Who made the link: the router's fetch of it is recorded in the audit log under this user. */
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  /** When a router fetched the script; a link serves once. */
  used_at: Timestamp | null;
}

/** A monthly uptime report mail (0047_uptime_mail_rules, ADR 044). */
export interface UptimeMailRulesTable {
  id: string;
  domain_id: string;
  name: string;
  recipients: Jsonb<string[]>;
  scope: "domain" | "tag";
  tag: string | null;
  language: "en" | "ru";
  active: Generated<boolean>;
  next_run: Timestamp | null;
  last_run: Timestamp | null;
  last_month: string | null;
  create_time: Timestamp;
}
