import type { ColumnType } from "kysely";

// The table of remote access (issue 29, migration 0037_tunnel_sessions, ADR 038), kept apart from
// schema.ts so that file stays readable; DB there lists it.

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** bigint: node-postgres and PGlite read it as a string; written as a number. */
type BigCount = ColumnType<string, number | undefined, number>;

/** One remote-access session, from request to end: its own audit record (0037_tunnel_sessions). */
export interface TunnelSessionsTable {
  id: string;
  domain_id: string;
  device_id: string;
  /** A contract REMOTE_ACCESS_KINDS value. */
  kind: string;
  /** A contract TUNNEL_STATES value. */
  state: string;
  /** The duration asked for, then as approved. */
  minutes: number;
  author_id: string;
  approver_id: string | null;
  created_at: Timestamp;
  approved_at: Timestamp | null;
  opened_at: Timestamp | null;
  ended_at: Timestamp | null;
  /** A contract TUNNEL_END_REASONS value. */
  end_reason: string | null;
  bytes_up: BigCount;
  bytes_down: BigCount;
  /** The server node holding the session while it is open. */
  node: string | null;
  /** SHA-256 of the router's single-use SSH password, its expiry, and when it was taken. */
  secret_hash: string | null;
  secret_expires_at: Timestamp | null;
  secret_used_at: Timestamp | null;
  /** Whether its recording is in file storage (0044): stored as it ends, removed by retention. */
  has_recording: ColumnType<boolean, boolean | undefined, boolean>;
}
