import type {
  ActionStatus,
  ExecutionCounts,
  ExecutionStatus,
  ScheduleClass,
  ScheduleRegular,
} from "@cellfleet/contract";
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date, Date>;
type Jsonb<T> = ColumnType<T, string, string>;

/** Commands (0015_actions). */
export interface CommandsTable {
  id: string;
  domain_id: string;
  type: string;
  wire_type: string;
  args: Jsonb<Record<string, string | number | boolean | null>>;
  file_id: string | null;
  targets: Jsonb<{ devices: string[]; tags: string[]; all: boolean }>;
  status: ActionStatus;
  needs_approval: boolean;
  author_id: string;
  author_name: string;
  author_role: number;
  author_is_junior: boolean;
  approver_id: string | null;
  approver_name: string | null;
  declined_reason: string | null;
  delayed_until: Timestamp | null;
  run_until: Timestamp | null;
  total: number;
  counts: Jsonb<ExecutionCounts>;
  create_time: Timestamp;
  update_time: Timestamp;
  /** The saved script or template used, at its version (0020_scripts_templates). */
  script_id: ColumnType<string | null, string | null | undefined, string | null>;
  script_kind: ColumnType<string | null, string | null | undefined, string | null>;
  script_name: ColumnType<string | null, string | null | undefined, string | null>;
  script_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** The schedule rule and occurrence that made it, unique together (0021_schedule_rules). */
  schedule_rule_id: ColumnType<string | null, string | null | undefined, string | null>;
  schedule_occurrence: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** Backup and journal schedule rules (0021_schedule_rules). */
export interface ScheduleRulesTable {
  id: string;
  domain_id: string;
  type: ScheduleClass;
  name: string;
  active: boolean;
  regular: Jsonb<ScheduleRegular>;
  active_for: "all" | "group";
  tags: Jsonb<string[]>;
  copies: number;
  next_run: Timestamp | null;
  last_run: Timestamp | null;
  last_command_id: string | null;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** One router's execution of a command (0015_actions). */
export interface CommandExecutionsTable {
  id: string;
  domain_id: string;
  command_id: string;
  device_id: string;
  status: ExecutionStatus;
  code: number | null;
  output: Generated<string>;
  progress: number | null;
  attempts: Generated<number>;
  last_publish_time: Timestamp | null;
  /** bigserial: read as a string. */
  position: ColumnType<string, never, never>;
  create_time: Timestamp;
  update_time: Timestamp;
  finish_time: Timestamp | null;
  /** The template as rendered for this router (0020_scripts_templates). */
  rendered: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Custom command types (0015_actions). */
export interface CommandTypesTable {
  id: string;
  domain_id: string;
  type: string;
  command: string;
  create_time: Timestamp;
}

/** Saved scripts and settings templates at their latest version (0020_scripts_templates). */
export interface ScriptsTable {
  id: string;
  domain_id: string;
  kind: "script" | "template";
  name: string;
  description: string;
  version: number;
  deleted: Generated<boolean>;
  create_time: Timestamp;
  update_time: Timestamp;
}

/** Every saved version of a script or template (0020_scripts_templates). */
export interface ScriptVersionsTable {
  script_id: string;
  version: number;
  text: string;
  var_values: Jsonb<{
    defaults: Record<string, string>;
    tag_values: Record<string, Record<string, string>>;
    device_values: Record<string, Record<string, string>>;
  }>;
  author_id: string;
  author_name: string;
  create_time: Timestamp;
}
