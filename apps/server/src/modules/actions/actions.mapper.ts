import { type Command, type Execution, executionResult, type Role } from "@cellfleet/contract";
import type { CommandRow } from "./commands.repo";
import type { ExecutionDtoRow } from "./executions.repo";

/** The one mapping of a command row to what the API answers and the socket pushes. */
export function toCommandDto(row: CommandRow): Command {
  return {
    _id: row.id,
    type: row.type,
    status: row.status,
    author: {
      _id: row.author_id,
      name: row.author_name,
      role: row.author_role as Role,
      is_junior: row.author_is_junior,
    },
    approver: row.approver_id ? { _id: row.approver_id, name: row.approver_name ?? "" } : null,
    declined_reason: row.declined_reason,
    args: row.args,
    file_id: row.file_id,
    script:
      row.script_id && row.script_version !== null
        ? {
            _id: row.script_id,
            kind: row.script_kind === "template" ? "template" : "script",
            name: row.script_name ?? "",
            version: row.script_version,
          }
        : null,
    targets: row.targets,
    delayed_until: row.delayed_until ? row.delayed_until.getTime() : null,
    run_until: row.run_until ? row.run_until.getTime() : null,
    needs_approval: row.needs_approval,
    create_time: row.create_time.getTime(),
    update_time: row.update_time.getTime(),
    total: row.total,
    counts: row.counts,
  };
}

/** The one mapping of an execution row to its DTO (the spec's report). */
export function toExecutionDto(row: ExecutionDtoRow): Execution {
  return {
    _id: row.id,
    command_id: row.command_id,
    type: row.type,
    device: { _id: row.device_id, ident: row.ident },
    status: row.status,
    result: executionResult(row.status),
    code: row.code,
    output: row.output,
    rendered: row.rendered,
    progress: row.progress,
    attempts: row.attempts,
    file_id: row.file_id,
    create_time: row.create_time.getTime(),
    update_time: row.update_time.getTime(),
    finish_time: row.finish_time ? row.finish_time.getTime() : null,
  };
}
