import { randomUUID } from "node:crypto";
import {
  approverKinds,
  COMMAND_TYPES_WITH_DOWNLOAD,
  type Command,
  type CommandDryRun,
  type CommandType,
  type CreateCommandInput,
  computeDeviceStatus,
  DEFAULT_DOMAIN_SETTINGS,
  type DomainSettings,
  initialExecutionStatus,
  isBuiltInCommandType,
  isReachableNow,
  needsApproval,
  renderTemplate,
  SETTINGS_COMMAND_TYPE,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { subjectOf, tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { type DeviceUserActionPayload, OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { devicesRepo } from "../devices/devices.repo";
import { requireDeviceDomain, requireDeviceView } from "../devices/devices.service";
import { findUsedScript, type UsedScript } from "../scripts/scripts.service";
import { settingsRepo } from "../settings/settings.repo";
import { toCommandDto } from "./actions.mapper";
import { announceApproval, raiseApprovalEvent } from "./approvals.service";
import { commandsRepo, type TargetDevice } from "./commands.repo";
import { enqueuePump, supportsCommandType } from "./delivery.service";
import { executionsRepo } from "./executions.repo";
import { publishCommandChanges, recountCommands } from "./executions.service";

/** How a command is made besides its input. */
export interface CreateCommandOptions {
  /** The version of its script or template to use instead of the latest (a retry repeats the one used). */
  scriptVersion?: number;
}

/** What a new command resolves to before anything is written. */
interface ResolvedCommand {
  type: string;
  wireType: CommandType;
  args: Record<string, string | number | boolean | null>;
  devices: TargetDevice[];
  /** How many of the targets cannot run the type (their executions will fail unsent). */
  unsupported: number;
  needsApproval: boolean;
  /** The saved script or template used: its latest version, or the one a retry repeats. */
  used: UsedScript | null;
  /** A template rendered for each router, by router id. */
  rendered: Map<string, string> | null;
}

/** Checks a new command and resolves its type and targets (shared by the dry run and the real thing). */
async function resolveCommand(
  ctx: AppContext,
  domainId: string,
  session: SessionContext,
  input: CreateCommandInput,
  options: CreateCommandOptions = {},
): Promise<ResolvedCommand> {
  if (input.type === "") throw new AppError("TYPE_NOT_SPECIFIED");
  const repo = commandsRepo(ctx.db);
  let wireType: CommandType;
  let args = { ...input.args };
  let used: UsedScript | null = null;
  if (input.template_id !== undefined && input.type !== SETTINGS_COMMAND_TYPE)
    throw new AppError("INVALID_VALUE_TYPE", "A template is sent by a settings command");
  if (input.type === SETTINGS_COMMAND_TYPE) {
    if (!input.template_id)
      throw new AppError("COMMAND_TEMPLATE_MISSING", "A settings command names a template", { status: 400 });
    used = await findUsedScript(ctx.db, domainId, "template", input.template_id, options.scriptVersion);
    wireType = "shell";
    args = {};
  } else if (isBuiltInCommandType(input.type)) wireType = input.type;
  else {
    const custom = await repo.findCommandTypeByName(domainId, input.type);
    if (!custom) throw new AppError("UNKNOWN_COMMAND_TYPE");
    wireType = "shell";
    args = { ...args, script: custom.command };
  }
  if (input.script_id !== undefined) {
    if (input.type !== "shell")
      throw new AppError("INVALID_VALUE_TYPE", "A saved script is sent by a shell command");
    used = await findUsedScript(ctx.db, domainId, "script", input.script_id, options.scriptVersion);
    args = { ...args, script: used.text };
  }
  if (
    used?.kind !== "template" &&
    wireType === "shell" &&
    (typeof args.script !== "string" || args.script.trim() === "")
  )
    throw new AppError("COMMAND_TEMPLATE_MISSING", "A shell command needs a script", { status: 400 });
  if (COMMAND_TYPES_WITH_DOWNLOAD.includes(wireType) && !input.file_id)
    throw new AppError("COMMAND_FILE_NOT_FOUND", `${wireType} needs a file`);
  // A router's file (a backup, a journal) is its router's: one of a router outside the caller's tags
  // is not theirs to send to another router (ADR 041), as another domain's file is not.
  const tagScope = tagScopeOf(session);
  if (input.file_id && tagScope.length > 0) {
    const owner = await repo.findFileRouter(domainId, input.file_id);
    if (
      typeof owner === "string" &&
      (await devicesRepo(ctx.db).countDevicesWithinTagScope(domainId, [owner], tagScope)) === 0
    )
      throw new AppError("COMMAND_FILE_NOT_FOUND", "The command's file is not one of the domain's files");
  }
  const now = ctx.now().getTime();
  if (input.run_until !== null && input.run_until <= now)
    throw new AppError("INVALID_VALUE_TYPE", "Run-until must be in the future");
  if (input.run_until !== null && input.delayed_until !== null && input.delayed_until >= input.run_until)
    throw new AppError("INVALID_VALUE_TYPE", "Delayed-until must come before run-until");
  const { devices: ids, tags, all } = input.targets;
  if (!all && ids.length === 0 && tags.length === 0) throw new AppError("TARGETS_NOT_SPECIFIED");
  const devices = await repo.findTargetDevices(domainId, input.targets, tagScopeOf(session));
  const found = new Set(devices.map((device) => device.id));
  // Another domain's router is not one of ours: the same answer as for one that never existed.
  if (ids.some((id) => !found.has(id))) throw new AppError("DEVICE_NOT_FOUND");
  if (devices.length === 0) throw new AppError("TARGETS_NOT_SPECIFIED", "No router matches the targets");
  const unsupported = unsupportedTargets(devices, wireType).length;
  return {
    type: input.type,
    wireType,
    args,
    devices,
    unsupported,
    needsApproval: needsApproval(subjectOf(session)),
    used,
    rendered: used?.kind === "template" ? renderForEach(used, devices) : null,
  };
}

/**
 * The targets that cannot run the type: their hello named command types, not this one. They are
 * not refused one by one: each gets an execution that fails unsent (delivery answers code 127 for
 * it) while the others run it. Only a command none of its targets can run is refused
 * (UNSUPPORTED_TASK_TYPE, naming a few of them).
 */
function unsupportedTargets(devices: readonly TargetDevice[], wireType: CommandType): TargetDevice[] {
  const unable = devices.filter((device) => !supportsCommandType(device.command_types, wireType));
  if (unable.length < devices.length) return unable;
  const names = unable.slice(0, 5).map((device) => device.ident);
  const more = unable.length > names.length ? ` and ${unable.length - names.length} more` : "";
  throw new AppError("UNSUPPORTED_TASK_TYPE", `${wireType} is not supported by ${names.join(", ")}${more}`);
}

/** A template rendered for each router; a variable without a value for some router refuses the command. */
function renderForEach(template: UsedScript, devices: readonly TargetDevice[]): Map<string, string> {
  const rendered = new Map<string, string>();
  for (const device of devices) {
    const result = renderTemplate(template.text, template.values, {
      id: device.id,
      tags: device.tags,
      system: {
        ident: device.ident,
        model: device.model ?? "",
        serial: device.serial ?? "",
        firmware: device.firmware ?? "",
        description: device.description,
      },
    });
    if (!result.ok)
      throw new AppError(
        "INVALID_VALUE_TYPE",
        `No value of ${result.missing.join(", ")} for ${device.ident} in template ${template.name}`,
      );
    rendered.set(device.id, result.text);
  }
  return rendered;
}

/** What the dry run shows the router would get: a script's text, or the template rendered for the first target. */
function renderedPreview(resolved: ResolvedCommand): CommandDryRun["rendered"] {
  const first = resolved.devices[0];
  if (resolved.rendered && first) return { ident: first.ident, text: resolved.rendered.get(first.id) ?? "" };
  if (resolved.wireType === "shell" && typeof resolved.args.script === "string")
    return { ident: null, text: resolved.args.script };
  return null;
}

/**
 * Reachable now: connected as the gateway saw it, or where it cannot tell, online by the one status
 * rule (the contract's computeDeviceStatus) under the domain's thresholds (ADR 032).
 */
function isOnline(device: TargetDevice, now: number, thresholds: DomainSettings["status"]): boolean {
  return isReachableNow(
    device.connected,
    computeDeviceStatus(device.last_contact?.getTime() ?? null, now, thresholds),
  );
}

/** POST /api/commands/dry-run: the targets, how many are offline now, and whose approval it needs. */
export async function dryRunCommand(
  ctx: AppContext,
  session: SessionContext,
  input: CreateCommandInput,
): Promise<CommandDryRun> {
  const domainId = requireDeviceDomain(session);
  const resolved = await resolveCommand(ctx, domainId, session, input);
  const now = ctx.now().getTime();
  const thresholds = ((await settingsRepo(ctx.db).findSettings(domainId)) ?? DEFAULT_DOMAIN_SETTINGS).status;
  const online = new Set(
    resolved.devices.filter((device) => isOnline(device, now, thresholds)).map((device) => device.id),
  );
  return {
    targets: resolved.devices.length,
    offline: resolved.devices.length - online.size,
    unsupported: resolved.unsupported,
    sample: resolved.devices
      .slice(0, 20)
      .map((device) => ({ _id: device.id, ident: device.ident, is_online: online.has(device.id) })),
    needs_approval: resolved.needsApproval,
    rendered: renderedPreview(resolved),
    approvers: approverKinds(subjectOf(session)),
  };
}

/** Writes the `device.user_action` outbox event: a person sent a command to these routers. */
async function emitCommandAction(
  ctx: AppContext,
  trx: Kysely<DB>,
  session: SessionContext,
  domainId: string,
  type: string,
  devices: readonly TargetDevice[],
): Promise<void> {
  const payload: DeviceUserActionPayload = {
    domain_id: domainId,
    action: "command",
    author_id: session.user.id,
    author: session.user.username,
    detail: type,
    devices: devices.map((device) => ({ id: device.id, ident: device.ident, tags: device.tags })),
  };
  await ctx.jobs.emit(trx, OUTBOX_EVENTS.deviceUserAction, { ...payload }, { domainId });
}

/**
 * POST /api/command/new: a command with one execution per router, waiting for approval (and
 * announced as an event and on the socket), for its time, or queued for delivery at once.
 */
export async function createCommand(
  ctx: AppContext,
  session: SessionContext,
  input: CreateCommandInput,
  options: CreateCommandOptions = {},
): Promise<Command> {
  const domainId = requireDeviceDomain(session);
  const resolved = await resolveCommand(ctx, domainId, session, input, options);
  const now = ctx.now();
  const id = randomUUID();
  const isDelayed = input.delayed_until !== null && input.delayed_until > now.getTime();
  const status = initialExecutionStatus({ needsApproval: resolved.needsApproval, isDelayed });
  await ctx.jobs.transaction(async (trx) => {
    await commandsRepo(trx).insertCommand(domainId, {
      id,
      type: resolved.type,
      wire_type: resolved.wireType,
      args: toJsonb(resolved.args),
      file_id: input.file_id ?? null,
      script_id: resolved.used?.id ?? null,
      script_kind: resolved.used?.kind ?? null,
      script_name: resolved.used?.name ?? null,
      script_version: resolved.used?.version ?? null,
      targets: toJsonb(input.targets),
      status: "in_progress",
      needs_approval: resolved.needsApproval,
      author_id: session.user.id,
      author_name: session.user.full_name || session.user.username,
      author_role: session.role,
      author_is_junior: session.user.is_junior,
      delayed_until: input.delayed_until === null ? null : new Date(input.delayed_until),
      run_until: input.run_until === null ? null : new Date(input.run_until),
      total: resolved.devices.length,
      counts: toJsonb({}),
      create_time: now,
      update_time: now,
    });
    await executionsRepo(trx).insertExecutions(
      domainId,
      resolved.devices.map((device) => ({
        id: randomUUID(),
        command_id: id,
        device_id: device.id,
        status,
        rendered: resolved.rendered?.get(device.id) ?? null,
        create_time: now,
        update_time: now,
      })),
    );
    await recountCommands(trx, domainId, [id], now);
    await emitCommandAction(ctx, trx, session, domainId, resolved.type, resolved.devices);
    if (status === "unapproved") await raiseApprovalEvent(trx, domainId, session, id, resolved, now);
    if (status === "queued")
      await enqueuePump(
        ctx,
        trx,
        resolved.devices.map((device) => device.id),
      );
  });
  const row = await commandsRepo(ctx.db).findCommand(domainId, id);
  if (!row) throw new AppError("ADD_COMMAND_FAILED");
  const command = toCommandDto(row);
  await publishCommandChanges(ctx, domainId, [id]);
  if (status === "unapproved") await announceApproval(ctx, domainId, command);
  return command;
}

/** POST /api/command/{id}: one command of the domain; another domain's is COMMAND_NOT_FOUND. */
export async function getCommand(ctx: AppContext, session: SessionContext, id: string): Promise<Command> {
  const { domainId, tagScope } = requireDeviceView(session);
  const row = await commandsRepo(ctx.db).findCommand(domainId, id, tagScope);
  if (!row) throw new AppError("COMMAND_NOT_FOUND");
  return toCommandDto(row);
}
