import type { AuditObject, JobState } from "@cellfleet/contract";
import type { ColumnType, Generated } from "kysely";

// The platform's own tables (scheduler leases, the audit log, the server's secrets, durable jobs),
// apart from the features' tables; `DB` in schema.ts names them all.

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** timestamptz with a database default. */
type TimestampDefault = ColumnType<Date, Date | undefined, Date>;
/** jsonb: read as T, written as a JSON string (see toJsonb in schema.ts). */
type Jsonb<T> = ColumnType<T, string, string>;

/** Leases of periodic jobs, so N server nodes run each one once (scheduler). */
export interface SchedulerLeasesTable {
  name: string;
  holder: string | null;
  expires_at: TimestampDefault;
}

/** The audit log of web actions (0005_accounting). */
export interface WebActionsTable {
  id: ColumnType<string, never, never>;
  domain_id: string | null;
  author_id: string | null;
  author: string;
  action: string;
  status: "SUCCESS" | "FAILURE";
  create_time: Timestamp;
  client_ip: string | null;
  info: Jsonb<Record<string, unknown>>;
  /** What was done (contract AUDIT_ROUTES, 0031); null for entries written before. */
  kind: ColumnType<string | null, string | null | undefined, string | null>;
  /** The object it was done to (0033). */
  object: ColumnType<AuditObject | null, string | null | undefined, string | null>;
  /** The name of the API token the call was made with (0039); null for a signed-in person's. */
  via_token: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Secrets the server made for itself on its first start (platform/secrets.ts). */
export interface PlatformSecretsTable {
  name: string;
  value: Buffer;
  create_time: TimestampDefault;
}

/** Durable jobs: work after a commit, written in the same transaction (platform/jobs). */
export interface JobsTable {
  id: string;
  kind: string;
  domain_id: string | null;
  payload: Jsonb<Record<string, unknown>>;
  sealed: string | null;
  state: JobState;
  run_at: Timestamp;
  attempts: Generated<number>;
  max_attempts: number;
  last_error: string | null;
  dedupe_key: string | null;
  locked_by: string | null;
  locked_until: Timestamp | null;
  create_time: Timestamp;
  finish_time: Timestamp | null;
}
