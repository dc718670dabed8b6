import type { ColumnType, Insertable, Selectable } from "kysely";

type Timestamp = ColumnType<Date, Date, Date>;

/** bigint: node-postgres and PGlite read it as a string. */
type BigintColumn = ColumnType<string, number | string, number | string>;

/** jsonb list of model names. */
type ModelsColumn = ColumnType<string[], string, string>;

/** Software (firmware) rules (modules/firmware, 0022_software_rules): root's, no domain. */
export interface SoftwareRulesTable {
  id: string;
  name: string;
  url: string;
  models: ModelsColumn;
  status: number;
  error: string | null;
  fetch_generation: ColumnType<number, number | undefined, number>;
  sync_time: Timestamp | null;
  /** The storage key of the fetched file; null until one was fetched whole. */
  file_key: string | null;
  filename: string | null;
  size: BigintColumn | null;
  sha256: string | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

export type SoftwareRuleRow = Selectable<SoftwareRulesTable>;
export type NewSoftwareRuleRow = Insertable<SoftwareRulesTable>;

/** A staged rollout of a ready rule (0023_rollouts): root's, no domain. */
export interface FirmwareRolloutsTable {
  id: string;
  rule_id: string;
  version: string;
  file_key: string;
  /** The rollout's options (contract RolloutOptions), as started. */
  options: ColumnType<Record<string, unknown>, string, string>;
  status: string;
  stage: ColumnType<number, number | undefined, number>;
  stage_count: number;
  /** The stage of the routers waiting for a better link (after the waves, 0030); null when none. */
  link_stage: number | null;
  total: number;
  /** Maintenance window in minutes of the UTC day; both null when commands go at any time. */
  window_start: number | null;
  window_end: number | null;
  pause_reason: string | null;
  tick: ColumnType<number, number | undefined, number>;
  author_id: string;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** One router of a rollout (0023_rollouts). */
export interface FirmwareRolloutTargetsTable {
  rollout_id: string;
  device_id: string;
  domain_id: string;
  stage: number;
  state: string;
  reason: string | null;
  command_id: string | null;
  execution_id: string | null;
  deadline: Timestamp | null;
  update_time: Timestamp;
}

/** A domain a rollout is offered to, and its answer (0031_rollout_domains, ADR 031). */
export interface FirmwareRolloutDomainsTable {
  rollout_id: string;
  domain_id: string;
  state: string;
  auto: ColumnType<boolean, boolean | undefined, boolean>;
  window_start: number | null;
  window_end: number | null;
  decided_by: string | null;
  decide_time: Timestamp | null;
  create_time: Timestamp;
}

export type FirmwareRolloutRow = Selectable<FirmwareRolloutsTable>;
export type FirmwareRolloutDomainRow = Selectable<FirmwareRolloutDomainsTable>;
export type FirmwareRolloutTargetRow = Selectable<FirmwareRolloutTargetsTable>;
