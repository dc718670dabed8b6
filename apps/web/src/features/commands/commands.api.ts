import {
  type Command,
  type CommandDecision,
  type CommandDryRun,
  CommandDryRunSchema,
  CommandSchema,
  type CommandsRequest,
  type CommandTypeDto,
  CommandTypeSchema,
  type CommandTypesAnswer,
  CommandTypesAnswerSchema,
  type CreateCommand,
  type CreateCommandType,
  type Execution,
  ExecutionSchema,
  type ReportsRequest,
} from "@cellfleet/contract";
import { apiRequest, apiStream } from "../../app/api/http";

/** POST /api/commands/ (NDJSON, newest first). */
export async function getCommands(request: CommandsRequest, signal?: AbortSignal): Promise<Command[]> {
  const commands: Command[] = [];
  await apiStream("POST /api/commands/", {
    body: { ...request },
    signal,
    schema: CommandSchema,
    onLine: (command) => commands.push(command),
  });
  return commands;
}

/** POST /api/command/{id}. */
export function getCommand(id: string, signal?: AbortSignal): Promise<Command> {
  return apiRequest("POST /api/command/{command_id}", {
    params: { command_id: id },
    body: {},
    schema: CommandSchema,
    signal,
  });
}

/** POST /api/reports/ (NDJSON): executions of a command or a router. */
export async function getReports(request: ReportsRequest, signal?: AbortSignal): Promise<Execution[]> {
  const rows: Execution[] = [];
  await apiStream("POST /api/reports/", {
    body: { ...request },
    signal,
    schema: ExecutionSchema,
    onLine: (row) => rows.push(row),
  });
  return rows;
}

/** POST /api/report/{device_id}/{report_id}. */
export function getReport(deviceId: string, reportId: string, signal?: AbortSignal): Promise<Execution> {
  return apiRequest("POST /api/report/{device_id}/{report_id}", {
    params: { device_id: deviceId, report_id: reportId },
    body: {},
    schema: ExecutionSchema,
    signal,
  });
}

/** POST /api/command_types: built-in and custom types, and the quick list. */
export function getCommandTypes(signal?: AbortSignal): Promise<CommandTypesAnswer> {
  return apiRequest("POST /api/command_types", { body: {}, schema: CommandTypesAnswerSchema, signal });
}

/** POST /api/commands/dry-run. */
export function dryRunCommand(body: CreateCommand): Promise<CommandDryRun> {
  return apiRequest("POST /api/commands/dry-run", { body: { ...body }, schema: CommandDryRunSchema });
}

/** POST /api/command/new. */
export function createCommand(body: CreateCommand): Promise<Command> {
  return apiRequest("POST /api/command/new", { body: { ...body }, schema: CommandSchema });
}

/** POST /api/command/{id}/{approve|decline|cancel|retry-failed}. */
export function actOnCommand(
  id: string,
  action: "approve" | "decline" | "cancel" | "retry-failed",
  body: CommandDecision = {},
): Promise<Command> {
  return apiRequest(`POST /api/command/{command_id}/${action}`, {
    params: { command_id: id },
    body,
    schema: CommandSchema,
  });
}

/** POST /api/command_type (admins): a custom type. */
export function createCommandType(body: CreateCommandType): Promise<CommandTypeDto> {
  return apiRequest("POST /api/command_type", { body: { ...body }, schema: CommandTypeSchema });
}

/** DELETE /api/command_type/{id}. */
export async function deleteCommandType(id: string): Promise<void> {
  await apiRequest("DELETE /api/command_type/{id}", { params: { id } });
}
