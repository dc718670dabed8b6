import type { DomainSettings } from "@cellfleet/contract";
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from "kysely";
import type {
  CommandExecutionsTable,
  CommandsTable,
  CommandTypesTable,
  ScheduleRulesTable,
  ScriptsTable,
  ScriptVersionsTable,
} from "./schema-actions";
import type { DeviceEventReadsTable, EventReadsTable, EventsTable, EventTypesTable } from "./schema-events";
import type { FilesTable, FileTransfersTable } from "./schema-files";
import type {
  FirmwareRolloutDomainsTable,
  FirmwareRolloutsTable,
  FirmwareRolloutTargetsTable,
  SoftwareRulesTable,
} from "./schema-firmware";
import type {
  AgentInstallTokensTable,
  DeviceOutagesTable,
  GatewayRefusalsTable,
  HistoryMarksTable,
  ModemChangesTable,
  SignalRollupDirtyTable,
  SignalRollupsTable,
  SignalSamplesTable,
  SimCardsTable,
  SimUsageTable,
  TagPlansTable,
  UptimeMailRulesTable,
} from "./schema-insight";
import type { LicensesTable } from "./schema-licenses";
import type {
  NotificationDeliveriesTable,
  NotificationDeliveryAttemptsTable,
  NotificationIncidentsTable,
  NotificationNewsSeenTable,
  NotificationNewsTable,
  NotificationRateSlotsTable,
  NotificationRulesTable,
  NotificationTransportsTable,
} from "./schema-notifications";
import type {
  JobsTable,
  PlatformSecretsTable,
  SchedulerLeasesTable,
  WebActionsTable,
} from "./schema-platform";
import type {
  SecondFactorChallengesTable,
  UserPasskeysTable,
  UserRecoveryCodesTable,
  UserTotpTable,
} from "./schema-second-factor";
import type {
  ApiTokensTable,
  PasswordHistoryTable,
  SessionsTable,
  SignInDevicesTable,
  SignInUnknownTable,
} from "./schema-sign-in";
import type { TunnelSessionsTable } from "./schema-tunnels";
import type { ZeroTouchAdoptionsTable, ZeroTouchConfigsTable } from "./schema-zerotouch";

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
  /** Contract DomainSettings but the time zone: status thresholds and copies kept. */
  settings: ColumnType<StoredDomainSettings, string | undefined, string>;
  /** The domain's IANA time zone (0027_domain_time_zone), part of the contract's DomainSettings. */
  time_zone: Generated<string>;
}

/**
 * What the settings column holds: the contract's DomainSettings without the zone, which has its
 * column; `rollouts` is missing from settings saved before ADR 031.
 */
export type StoredDomainSettings = Omit<DomainSettings, "time_zone" | "rollouts" | "remote_access"> & {
  rollouts?: DomainSettings["rollouts"];
  remote_access?: DomainSettings["remote_access"];
};

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
  second_factor_required_for: ColumnType<string, string | undefined, string>;
  second_factor_remember_days: ColumnType<number, number | undefined, number>;
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
  /** A temporary block (failed attempts) lasts until then (0005_accounting). */
  blocked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Why `blocked` is set: manual, attempts, inactive, expired (0005_accounting). */
  block_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** Soft removal: the row stays for the audit log's authors (0005_accounting). */
  removed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Browsers that never signed in as the user are refused (the policy's permanent count, 0016). */
  untrusted_blocked: Generated<boolean>;
  /** Every event up to this id counts as read by the user ("all read", 0016). */
  events_read_through: ColumnType<string | null, string | null | undefined, string | null>;
  /** A confirmed TOTP app or a passkey is enrolled (0038, ADR 039). */
  has_second_factor: Generated<boolean>;
  /** Only routers carrying one of these tags are the user's; empty: all of the domain (0040, ADR 041). */
  tag_scope: ColumnType<string[], string | undefined, string>;
}

/** A router of a domain. Status is never stored as truth: it is computed from last_contact when read. */
export interface DevicesTable {
  id: string;
  domain_id: string;
  ident: string;
  description: Generated<string>;
  tags: ColumnType<string[], string | undefined, string>;
  aes_key: string | null;
  model: string | null;
  firmware: string | null;
  serial: string | null;
  last_contact: Timestamp | null;
  last_status: Generated<string>;
  /** bigint: node-postgres and PGlite read it as a string. */
  last_seq: ColumnType<string, string | number | undefined, string | number>;
  /** The router's current sequence epoch and what is added to its seqs (0017_gateway_epochs). */
  seq_epoch: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  seq_offset: ColumnType<string, string | number | undefined, string | number>;
  seq_prev_epoch: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  seq_prev_offset: ColumnType<string, string | number | undefined, string | number>;
  /** Events counted on the router (not quiet); each user's unread = this - their read_count (0029). */
  events_total: Generated<number>;
  signal_csq: number | null;
  network_mode: string | null;
  /** A modem online in the last modems report; null before one (0018_first_user). */
  wan_up: boolean | null;
  /** The command types its last hello named, comma-separated; null: all (0020_scripts_templates). */
  command_types: ColumnType<string | null, string | null | undefined, string | null>;
  has_backups: Generated<boolean>;
  has_journals: Generated<boolean>;
  meta: ColumnType<Record<string, unknown>, string | undefined, string>;
  create_time: TimestampDefault;
  /** The zero-touch configuration it joined through; null when created by hand (0025_zero_touch). */
  zero_touch_config_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its main MQTT connection is open now; null: not known (0032_device_connection, ADR 032). */
  connected: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  /** When `connected` last changed. */
  connection_time: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The gateway node holding (or that last held) the connection. */
  connection_node: ColumnType<string | null, string | null | undefined, string | null>;
  /** Its position in degrees (WGS 84) and its source; null together until known (0041_device_position). */
  latitude: ColumnType<number | null, number | null | undefined, number | null>;
  longitude: ColumnType<number | null, number | null | undefined, number | null>;
  position_source: ColumnType<
    DevicePositionSource | null,
    DevicePositionSource | null | undefined,
    DevicePositionSource | null
  >;
}

/** Where a router's position came from: a person (or an import) or the router's GPS. */
export type DevicePositionSource = "admin" | "gps";

/** The latest state per device and collect type. */
export interface DeviceCollectsTable {
  device_id: string;
  domain_id: string;
  type: string;
  data: Jsonb<unknown>;
  seq: ColumnType<string, string | number, string | number>;
  create_time: Timestamp;
}

/** What changed in each report, for charts. */
export interface CollectHistoryTable {
  id: ColumnType<string, never, never>;
  domain_id: string;
  device_id: string;
  type: string;
  changes: Jsonb<unknown>;
  create_time: Timestamp;
  /** The report's seq (bigint, read as a string); unique per device and type when set. */
  seq: ColumnType<string | null, string | number | null | undefined, string | number | null>;
}

/** One-time codes sent by e-mail: registration keys and password resets (0005_accounting). */
export interface EmailCodesTable {
  id: string;
  purpose: "registration" | "password_reset";
  email: string;
  user_id: string | null;
  code_hash: string;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  create_time: Timestamp;
}

/** The database as Kysely sees it. */
export interface DB {
  domains: DomainsTable;
  security_policies: SecurityPoliciesTable;
  users: UsersTable;
  password_history: PasswordHistoryTable;
  sessions: SessionsTable;
  sign_in_devices: SignInDevicesTable;
  sign_in_unknown: SignInUnknownTable;
  user_totp: UserTotpTable;
  user_passkeys: UserPasskeysTable;
  user_recovery_codes: UserRecoveryCodesTable;
  second_factor_challenges: SecondFactorChallengesTable;
  event_reads: EventReadsTable;
  device_event_reads: DeviceEventReadsTable;
  devices: DevicesTable;
  commands: CommandsTable;
  command_executions: CommandExecutionsTable;
  command_types: CommandTypesTable;
  scripts: ScriptsTable;
  zero_touch_configs: ZeroTouchConfigsTable;
  zero_touch_adoptions: ZeroTouchAdoptionsTable;
  script_versions: ScriptVersionsTable;
  device_collects: DeviceCollectsTable;
  collect_history: CollectHistoryTable;
  events: EventsTable;
  scheduler_leases: SchedulerLeasesTable;
  web_actions: WebActionsTable;
  api_tokens: ApiTokensTable;
  email_codes: EmailCodesTable;
  platform_secrets: PlatformSecretsTable;
  jobs: JobsTable;
  notification_transports: NotificationTransportsTable;
  notification_rules: NotificationRulesTable;
  notification_incidents: NotificationIncidentsTable;
  notification_deliveries: NotificationDeliveriesTable;
  notification_delivery_attempts: NotificationDeliveryAttemptsTable;
  notification_rate_slots: NotificationRateSlotsTable;
  notification_news: NotificationNewsTable;
  notification_news_seen: NotificationNewsSeenTable;
  files: FilesTable;
  file_transfers: FileTransfersTable;
  signal_samples: SignalSamplesTable;
  signal_rollups: SignalRollupsTable;
  uptime_mail_rules: UptimeMailRulesTable;
  signal_rollup_dirty: SignalRollupDirtyTable;
  history_marks: HistoryMarksTable;
  device_outages: DeviceOutagesTable;
  modem_changes: ModemChangesTable;
  sim_usage: SimUsageTable;
  sim_cards: SimCardsTable;
  tag_plans: TagPlansTable;
  gateway_refusals: GatewayRefusalsTable;
  agent_install_tokens: AgentInstallTokensTable;
  event_types: EventTypesTable;
  licenses: LicensesTable;
  schedule_rules: ScheduleRulesTable;
  software_rules: SoftwareRulesTable;
  firmware_rollouts: FirmwareRolloutsTable;
  firmware_rollout_targets: FirmwareRolloutTargetsTable;
  firmware_rollout_domains: FirmwareRolloutDomainsTable;
  tunnel_sessions: TunnelSessionsTable;
}

export type DomainRow = Selectable<DomainsTable>;
export type NewDomainRow = Insertable<DomainsTable>;
export type SecurityPolicyRow = Selectable<SecurityPoliciesTable>;
export type NewSecurityPolicyRow = Insertable<SecurityPoliciesTable>;
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type DeviceRow = Selectable<DevicesTable>;
export type NewDeviceRow = Insertable<DevicesTable>;
export type DeviceUpdate = Updateable<DevicesTable>;
export type DeviceCollectRow = Selectable<DeviceCollectsTable>;
export type EventRow = Selectable<EventsTable>;
export type NewEventRow = Insertable<EventsTable>;
export type NewSessionRow = Insertable<SessionsTable>;
export type JobRow = Selectable<JobsTable>;
export type NewJobRow = Insertable<JobsTable>;
export type {
  FileRow,
  FileTransferRow,
  FileTransferState,
  NewFileRow,
  NewFileTransferRow,
} from "./schema-files";
export type {
  NotificationDeliveryAttemptRow,
  NotificationDeliveryRow,
  NotificationIncidentRow,
  NotificationNewsRow,
  NotificationRuleRow,
  NotificationTransportRow,
} from "./schema-notifications";

/** Serialises a value for a jsonb column. */
export function toJsonb(value: unknown): string {
  return JSON.stringify(value);
}

/** A user as services see it: the row without its password hash, plus its domain's name and policy. */
export type UserRecord = Omit<UserRow, "password_hash"> & {
  domain_name: string | null;
  domain_policy_id: string | null;
};
