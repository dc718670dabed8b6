import type { ColumnType, Generated } from "kysely";

// The tables of signing in (sessions, browsers, lockouts, password history), kept apart from
// schema.ts so that file stays readable; DB there lists them.

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** timestamptz with a database default. */
type TimestampDefault = ColumnType<Date, Date | undefined, Date>;

/** A browser that signed in as a user: its device cookie's hash and its own failures (0016, ADR 016). */
export interface SignInDevicesTable {
  token_hash: string;
  user_id: string;
  failed_attempts: Generated<number>;
  blocked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  blocked: Generated<boolean>;
  create_time: Timestamp;
  expires_at: Timestamp;
  /** The second step is skipped in this browser until then (its owner asked; 0038, ADR 039). */
  second_factor_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Failed sign-ins under a username nobody has, so its lockout answers like a real one's (0016). */
export interface SignInUnknownTable {
  username_hash: string;
  failed_attempts: Generated<number>;
  blocked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  update_time: Timestamp;
}

/** Earlier password hashes, so a user cannot go back to a recent password. */
export interface PasswordHistoryTable {
  id: string;
  user_id: string;
  password_hash: string;
  create_time: TimestampDefault;
}

/** Sign-ins. Only the SHA-256 of the token is stored. */
export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  create_time: TimestampDefault;
  expires_at: Timestamp;
  last_seen_at: Timestamp;
  ended_at: Timestamp | null;
  end_reason: string | null;
  client_ip: string | null;
}

/** Personal API tokens (0039, ADR 040). Only the SHA-256 of the token is stored. */
export interface ApiTokensTable {
  id: string;
  domain_id: string | null;
  user_id: string;
  name: string;
  token_hash: string;
  /** The actions the token carries (contract permission table), a JSON array. */
  permissions: ColumnType<string[], string, string>;
  /** Allowed networks (CIDR), a JSON array; empty: anywhere. */
  allowed_ips: ColumnType<string[], string | undefined, string>;
  /** The token reaches only routers carrying one of these tags, within its person's (0040, ADR 041). */
  tag_scope: ColumnType<string[], string | undefined, string>;
  create_time: Timestamp;
  expires_at: Timestamp;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_used_ip: ColumnType<string | null, string | null | undefined, string | null>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  revoked_by: ColumnType<string | null, string | null | undefined, string | null>;
}
