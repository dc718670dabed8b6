import type { ColumnType, Generated, Selectable } from "kysely";

// The notification tables of migration 0014 (modules/notifications), apart from schema.ts so the
// main schema stays short; DB in schema.ts names them.

/** timestamptz: read as Date, written as Date. */
type Timestamp = ColumnType<Date, Date, Date>;
/** jsonb: read as T, written as a JSON string (see toJsonb in schema.ts). */
type Jsonb<T> = ColumnType<T, string, string>;

/** Notification providers (0014_notifications); domain_id null for superusers' own. */
export interface NotificationTransportsTable {
  id: string;
  domain_id: string | null;
  name: string;
  type: "telegram" | "webhook" | "smtp";
  settings: Jsonb<Record<string, unknown>>;
  /** The secret fields as JSON, sealed with the "notification-secret" key. */
  sealed: string | null;
  prefix: Generated<string>;
  language: Generated<string>;
  failures: Generated<number>;
  last_error: string | null;
  last_failure_at: Timestamp | null;
  last_success_at: Timestamp | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** Notification rules (0014_notifications). */
export interface NotificationRulesTable {
  id: string;
  domain_id: string | null;
  name: string;
  active: Generated<boolean>;
  draft: Generated<boolean>;
  monitor: string;
  /** bigint: read as a string. */
  check_delay: ColumnType<string | null, number | null | undefined, number | null>;
  variables: Jsonb<Record<string, string>>;
  transport_id: string | null;
  filter_tags: Jsonb<string[]>;
  filter_levels: Jsonb<string[]>;
  tolerance_minutes: Generated<number>;
  timer_next_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  author_id: string | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** Incidents of rules: what keeps alerts to one at the start and one at the end (0014). */
export interface NotificationIncidentsTable {
  id: string;
  domain_id: string | null;
  rule_id: string;
  subject_key: string;
  style: "state" | "occurrence";
  state: "pending" | "open" | "closing" | "closed";
  opened_line: Jsonb<Record<string, unknown>>;
  resolved_line: Jsonb<Record<string, unknown> | null>;
  started_at: Timestamp;
  due_at: Timestamp | null;
  last_seen_at: Timestamp;
  repeats: Generated<number>;
  announced_at: Timestamp | null;
  closed_at: Timestamp | null;
}

/** The delivery log: every message and its state (0014). */
export interface NotificationDeliveriesTable {
  id: string;
  domain_id: string | null;
  rule_id: string | null;
  transport_id: string | null;
  kind: "incidents" | "digest";
  state: "queued" | "sending" | "sent" | "retrying" | "failed";
  title: string;
  text: string;
  attempts: Generated<number>;
  max_attempts: number;
  last_answer: string | null;
  job_id: string | null;
  /** The routers its lines name (0048, ADR 041); null: about no router. */
  device_ids: ColumnType<string[] | null, string | null | undefined, string | null>;
  sent_at: Timestamp | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** One attempt of a delivery (0014). */
export interface NotificationDeliveryAttemptsTable {
  id: ColumnType<string, never, never>;
  delivery_id: string;
  attempt: number;
  outcome: "sending" | "sent" | "failed" | "retry_after";
  status_code: number | null;
  answer: Generated<string>;
  start_time: Timestamp;
  end_time: Timestamp | null;
}

/** The next free send time per pacing key (0014). */
export interface NotificationRateSlotsTable {
  key: string;
  next_at: Timestamp;
}

/** In-app notifications (0014). */
export interface NotificationNewsTable {
  id: string;
  domain_id: string | null;
  rule_id: string | null;
  level: string;
  title: string;
  text: string;
  /** The routers its lines name (0048, ADR 041); null: about no router. */
  device_ids: ColumnType<string[] | null, string | null | undefined, string | null>;
  create_time: Timestamp;
}

/** Up to when a person has seen the in-app notifications (0014). */
export interface NotificationNewsSeenTable {
  user_id: string;
  seen_until: Timestamp;
}

export type NotificationTransportRow = Selectable<NotificationTransportsTable>;
export type NotificationRuleRow = Selectable<NotificationRulesTable>;
export type NotificationIncidentRow = Selectable<NotificationIncidentsTable>;
export type NotificationDeliveryRow = Selectable<NotificationDeliveriesTable>;
export type NotificationDeliveryAttemptRow = Selectable<NotificationDeliveryAttemptsTable>;
export type NotificationNewsRow = Selectable<NotificationNewsTable>;
