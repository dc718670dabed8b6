import type { ActionStatus, ExecutionCounts, ExecutionStatus } from "@cellfleet/contract";
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
}

/** Custom command types (0015_actions). */
export interface CommandTypesTable {
  id: string;
  domain_id: string;
  type: string;
  command: string;
  create_time: Timestamp;
}
