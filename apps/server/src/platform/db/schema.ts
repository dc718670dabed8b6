import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** timestamptz with a database default. */
type TimestampDefault = ColumnType<Date, Date | undefined, Date>;
/**
 * jsonb: read as T, written as a JSON string (see toJsonb), because node-postgres would turn a
 * JS array into a Postgres array literal rather than JSON.
 */
type Jsonb<T> = ColumnType<T, string, string>;

/** Tenants: a company's fleet and its users. */
export interface DomainsTable {
  id: string;
  name: string;
  full_name: Generated<string>;
  tin: string | null;
  email: string | null;
  phone: string | null;
  manager: string | null;
  policy_id: string | null;
  device_limit: Generated<number>;
  is_demo: Generated<boolean>;
  create_time: TimestampDefault;
  last_session: Timestamp | null;
}

/** Password and account rules (contract SecurityPolicySchema); domain_id null for global ones. */
export interface SecurityPoliciesTable {
  id: string;
  domain_id: string | null;
  name: string;
  policy_level: number;
  password_min_length: number;
  password_max_length: number;
  admin_min_length: number;
  max_repeated_symbols: number;
  repeated_combination_length: number;
  repeated_combination_count: number;
  expiration_days: number;
  admin_expiration_days: number;
  expiration_strategy: "block" | "send_new_password";
  attempts_before_temporary_block: number;
  attempts_before_permanent_block: number;
  temporary_block_minutes: number;
  reauthentication: boolean;
  inactivity_minutes: number;
  block_without_auth_days: number;
  password_history: number;
  forbidden_sequences: Jsonb<string[]>;
  forbidden_phrases: Jsonb<string[]>;
  is_default: Generated<boolean>;
  create_time: TimestampDefault;
}

/** People who sign in; domain_id is null exactly for superusers (role 1). */
export interface UsersTable {
  id: string;
  domain_id: string | null;
  username: string;
  full_name: Generated<string>;
  role: number;
  is_junior: Generated<boolean>;
  email: string | null;
  phone: string | null;
  plugins: Jsonb<string[]>;
  password_hash: string;
  factory_password: Generated<boolean>;
  password_changed_at: Timestamp;
  password_expire_date: Timestamp | null;
  blocked: Generated<boolean>;
  is_demo: Generated<boolean>;
  policy_id: string | null;
  last_login: Timestamp | null;
  failed_attempts: Generated<number>;
  create_time: TimestampDefault;
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

/** The database as Kysely sees it. */
export interface DB {
  domains: DomainsTable;
  security_policies: SecurityPoliciesTable;
  users: UsersTable;
  password_history: PasswordHistoryTable;
  sessions: SessionsTable;
}

export type DomainRow = Selectable<DomainsTable>;
export type NewDomainRow = Insertable<DomainsTable>;
export type SecurityPolicyRow = Selectable<SecurityPoliciesTable>;
export type NewSecurityPolicyRow = Insertable<SecurityPoliciesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type NewSessionRow = Insertable<SessionsTable>;

/** Serialises a value for a jsonb column. */
export function toJsonb(value: unknown): string {
  return JSON.stringify(value);
}

/** A user as services see it: the row without its password hash, plus its domain's name and policy. */
export type UserRecord = Omit<UserRow, "password_hash"> & {
  domain_name: string | null;
  domain_policy_id: string | null;
};
