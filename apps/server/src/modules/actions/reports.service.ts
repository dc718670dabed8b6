import { randomUUID } from "node:crypto";
import {
  COMMAND_TYPES,
  type Command,
  type CommandsRequestSchema,
  type CommandTypeDto,
  type CommandTypesAnswer,
  type CreateCommandType,
  type Execution,
  QUICK_ACTIONS_LIMIT,
  type ReportsRequestSchema,
  SETTINGS_COMMAND_TYPE,
} from "@cellfleet/contract";
import type { z } from "zod";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain, requireDeviceView } from "../devices/devices.service";
import { toCommandDto, toExecutionDto } from "./actions.mapper";
import { commandsRepo } from "./commands.repo";
import { executionsRepo } from "./executions.repo";

const STREAM_BATCH = 500;

/** POST /api/commands/: the domain's commands, newest first, in batches for the NDJSON stream. */
export async function* listCommands(
  ctx: AppContext,
  session: SessionContext,
  query: z.output<typeof CommandsRequestSchema>,
): AsyncGenerator<Command[]> {
  const { domainId, tagScope } = requireDeviceView(session);
  const repo = commandsRepo(ctx.db);
  for (let offset = query.offset, left = query.limit; left > 0; ) {
    const rows = await repo.findCommands(
      domainId,
      { statuses: query.status, types: query.type, tagScope },
      Math.min(STREAM_BATCH, left),
      offset,
    );
    if (rows.length > 0) yield rows.map(toCommandDto);
    if (rows.length < Math.min(STREAM_BATCH, left)) return;
    offset += rows.length;
    left -= rows.length;
  }
}

/** POST /api/reports/: executions of the domain (of a command, of a router), newest first. */
export async function* listReports(
  ctx: AppContext,
  session: SessionContext,
  query: z.output<typeof ReportsRequestSchema>,
): AsyncGenerator<Execution[]> {
  const { domainId, tagScope } = requireDeviceView(session);
  const repo = executionsRepo(ctx.db);
  if (query.command_id && !(await commandsRepo(ctx.db).findCommand(domainId, query.command_id, tagScope)))
    throw new AppError("COMMAND_NOT_FOUND");
  const filter = {
    commandId: query.command_id,
    deviceId: query.device_id,
    statuses: query.status,
    tagScope,
  };
  for (let offset = query.offset, left = query.limit; left > 0; ) {
    const rows = await repo.findExecutions(domainId, filter, Math.min(STREAM_BATCH, left), offset);
    if (rows.length > 0) yield rows.map(toExecutionDto);
    if (rows.length < Math.min(STREAM_BATCH, left)) return;
    offset += rows.length;
    left -= rows.length;
  }
}

/** POST /api/report/{device_id}/{report_id}: one execution of one router; else REPORT_NOT_FOUND. */
export async function getReport(
  ctx: AppContext,
  session: SessionContext,
  deviceId: string,
  reportId: string,
): Promise<Execution> {
  const domainId = requireDeviceDomain(session);
  const row = await executionsRepo(ctx.db).findExecution(domainId, reportId);
  if (!row || row.device_id !== deviceId) throw new AppError("REPORT_NOT_FOUND");
  return toExecutionDto(row);
}

/** POST /api/command_types: the built-in types, the domain's custom ones, and the quick list. */
export async function listCommandTypes(
  ctx: AppContext,
  session: SessionContext,
): Promise<CommandTypesAnswer> {
  const domainId = requireDeviceDomain(session);
  const repo = commandsRepo(ctx.db);
  const custom = await repo.findCommandTypes(domainId);
  const types: CommandTypeDto[] = [
    ...COMMAND_TYPES.map((type) => ({ _id: type, type, command: "", system: true })),
    // A settings template, rendered for each router, travels as shell.
    { _id: SETTINGS_COMMAND_TYPE, type: SETTINGS_COMMAND_TYPE, command: "", system: true },
    ...custom.map((row) => ({ _id: row.id, type: row.type, command: row.command, system: false })),
  ];
  const used = await repo.findMostUsedTypes(domainId, QUICK_ACTIONS_LIMIT);
  const quick = [...used, ...COMMAND_TYPES.filter((type) => !used.includes(type))].slice(
    0,
    QUICK_ACTIONS_LIMIT,
  );
  return { types, quick };
}

/** POST /api/command_type: a custom type (admins); a built-in name is SYSTEM_COMMAND_TYPE. */
export async function createCommandType(
  ctx: AppContext,
  session: SessionContext,
  body: CreateCommandType,
): Promise<CommandTypeDto> {
  const domainId = requireDeviceDomain(session);
  const type = body.type.trim();
  if ([...COMMAND_TYPES, SETTINGS_COMMAND_TYPE].includes(type.toLowerCase()))
    throw new AppError("SYSTEM_COMMAND_TYPE");
  const repo = commandsRepo(ctx.db);
  if (await repo.findCommandTypeByName(domainId, type))
    throw new AppError("OPERATION_IS_NOT_SUPPORTED", "A type of that name exists");
  const id = randomUUID();
  await repo.insertCommandType(domainId, { id, type, command: body.command.trim(), create_time: ctx.now() });
  return { _id: id, type, command: body.command.trim(), system: false };
}

/** DELETE /api/command_type/{id}: a built-in is SYSTEM_COMMAND_TYPE, an unknown one COMMAND_TYPE_NOT_FOUND. */
export async function deleteCommandType(ctx: AppContext, session: SessionContext, id: string): Promise<void> {
  const domainId = requireDeviceDomain(session);
  if ((COMMAND_TYPES as readonly string[]).includes(id) || id === SETTINGS_COMMAND_TYPE)
    throw new AppError("SYSTEM_COMMAND_TYPE");
  if (!(await commandsRepo(ctx.db).deleteCommandType(domainId, id)))
    throw new AppError("COMMAND_TYPE_NOT_FOUND");
}
