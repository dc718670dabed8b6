import {
  approverKinds,
  type Command,
  type CommandDecision,
  type CreateCommandInput,
  canApprove,
  type ExecutionEvent,
  type Role,
  WAITING_APPROVALS_SHOWN,
  type WaitingApprovals,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { assertCan, subjectOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import { domainTopic } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain, requireDeviceView } from "../devices/devices.service";
import { isEventKindActive } from "../settings/settings.service";
import { toCommandDto } from "./actions.mapper";
import { type CommandRow, commandsRepo } from "./commands.repo";
import { enqueuePump } from "./delivery.service";
import { executionsRepo } from "./executions.repo";
import { moveExecutions, publishCommandChanges, recountCommands } from "./executions.service";

/** How many of a waiting command's routers its event names; the rest are counted. */
const APPROVAL_EVENT_IDENTS = 5;

/** Unapproved commands read to find those the caller may decide on (a domain rarely has more waiting). */
const WAITING_SCAN_LIMIT = 500;

/** Writes the 'command needing approval' event in the command's transaction, naming its routers. */
export async function raiseApprovalEvent(
  trx: Kysely<DB>,
  domainId: string,
  session: SessionContext,
  commandId: string,
  resolved: { type: string; devices: readonly { ident: string }[] },
  now: Date,
): Promise<void> {
  const idents = resolved.devices.slice(0, APPROVAL_EVENT_IDENTS).map((device) => device.ident);
  const more = resolved.devices.length - idents.length;
  await commandsRepo(trx).insertPersonEvent(domainId, {
    is_quiet: !(await isEventKindActive(trx, domainId, "command_needs_approval")),
    kind: "command_needs_approval",
    level: "warning",
    message: `${session.user.username}: ${resolved.type} → ${idents.join(", ")}${more > 0 ? ` +${more}` : ""}`,
    details: {
      command_id: commandId,
      type: resolved.type,
      targets: resolved.devices.length,
      idents,
      author: session.user.username,
      approvers: approverKinds(subjectOf(session)),
    },
    author_id: session.user.id,
    create_time: now,
  });
}

/** Pushes the 'approval' socket message: a command waits for a decision (or no longer does). */
export async function announceApproval(ctx: AppContext, domainId: string, command: Command): Promise<void> {
  try {
    await ctx.bus.publish(domainTopic(domainId), { type: "approval", content: [command] });
  } catch (error) {
    ctx.log.error({ err: error, domainId }, "publishing an approval message failed");
  }
}

/**
 * POST /api/commands/waiting: the domain's commands waiting for a decision this person may make
 * (four eyes: never their own), newest first, so the bell and the actions list can say "N actions
 * wait for you" (issue 27).
 */
export async function listWaitingApprovals(
  ctx: AppContext,
  session: SessionContext,
): Promise<WaitingApprovals> {
  const { domainId, tagScope } = requireDeviceView(session);
  const rows = await commandsRepo(ctx.db).findCommands(
    domainId,
    { statuses: ["unapproved"], tagScope },
    WAITING_SCAN_LIMIT,
    0,
  );
  const subject = subjectOf(session);
  const mine = rows.filter((row) => canApprove(subject, authorOf(row)));
  return { count: mine.length, items: mine.slice(0, WAITING_APPROVALS_SHOWN).map(toCommandDto) };
}

function authorOf(row: CommandRow) {
  return { _id: row.author_id, role: row.author_role as Role, is_junior: row.author_is_junior };
}

/** Applies an event to a whole command under its row lock, recounts it and pushes the change. */
async function decide(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  check: (row: CommandRow) => void,
  event: (row: CommandRow) => ExecutionEvent,
  write: (trx: Kysely<DB>, domainId: string, row: CommandRow) => Promise<void>,
): Promise<Command> {
  const { domainId, tagScope } = requireDeviceView(session);
  const now = ctx.now();
  const moved = await ctx.jobs.transaction(async (trx) => {
    // Approving, declining or cancelling a command about routers outside one's tags: not found (ADR 041).
    const row = await commandsRepo(trx).lockCommand(domainId, id, tagScope);
    if (!row) throw new AppError("COMMAND_NOT_FOUND");
    check(row);
    const changed = await moveExecutions(trx, domainId, { commandId: id }, event(row), now);
    if (changed.length === 0)
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Nothing of the command can change so");
    await write(trx, domainId, row);
    await recountCommands(trx, domainId, [id], now);
    const queued = changed.filter((row) => row.status === "queued").map((row) => row.device_id);
    if (queued.length > 0) await enqueuePump(ctx, trx, queued);
    return changed;
  });
  const row = await commandsRepo(ctx.db).findCommand(domainId, id);
  if (!row) throw new AppError("COMMAND_NOT_FOUND");
  const executionIds = moved.map((execution) => execution.id);
  await publishCommandChanges(ctx, domainId, [id], executionIds);
  return toCommandDto(row);
}

/**
 * POST /api/command/{id}/approve: an approver the permission table allows for this author (never
 * the author) releases the waiting executions: to their delayed-until time, or queued at once.
 */
export async function approveCommand(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  _decision: CommandDecision,
): Promise<Command> {
  const now = ctx.now().getTime();
  const command = await decide(
    ctx,
    session,
    id,
    (row) => {
      assertCan(session, "commands.approve", authorOf(row));
      if (row.run_until && row.run_until.getTime() <= now)
        throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The approval lapsed at run-until");
    },
    (row) => ({
      type: "approve",
      isDelayed: row.delayed_until !== null && row.delayed_until.getTime() > now,
    }),
    (trx, domainId) =>
      commandsRepo(trx).updateCommand(domainId, id, {
        approver_id: session.user.id,
        approver_name: session.user.full_name || session.user.username,
        update_time: ctx.now(),
      }),
  );
  await announceApproval(ctx, requireDeviceDomain(session), command);
  return command;
}

/** POST /api/command/{id}/decline: the approver declines with a reason; every execution is cancelled. */
export async function declineCommand(
  ctx: AppContext,
  session: SessionContext,
  id: string,
  decision: CommandDecision,
): Promise<Command> {
  const reason = decision.reason ?? "";
  const command = await decide(
    ctx,
    session,
    id,
    (row) => assertCan(session, "commands.approve", authorOf(row)),
    () => ({ type: "decline" }),
    (trx, domainId) =>
      commandsRepo(trx).updateCommand(domainId, id, {
        approver_id: session.user.id,
        approver_name: session.user.full_name || session.user.username,
        declined_reason: reason,
        update_time: ctx.now(),
      }),
  );
  await announceApproval(ctx, requireDeviceDomain(session), command);
  return command;
}

/**
 * POST /api/command/{id}/cancel: cancels what has not reached a router yet. One's own command, or
 * another's under the four-eyes rule of approving it (the permission table's `commands.cancel`).
 */
export async function cancelCommand(ctx: AppContext, session: SessionContext, id: string): Promise<Command> {
  return decide(
    ctx,
    session,
    id,
    (row) => assertCan(session, "commands.cancel", authorOf(row)),
    () => ({ type: "cancel" }),
    async () => undefined,
  );
}

/** A new command that repeats one for the routers whose executions failed, and the script version it used. */
export interface FailedRetry {
  input: CreateCommandInput;
  /** The version of the saved script or template the command used, which the retry uses again. */
  scriptVersion?: number;
}

/** The body of a new command that repeats one for the routers whose executions failed. */
export async function failedRetryInput(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<FailedRetry> {
  const { domainId, tagScope } = requireDeviceView(session);
  const row = await commandsRepo(ctx.db).findCommand(domainId, id, tagScope);
  if (!row) throw new AppError("COMMAND_NOT_FOUND");
  // Nothing of a command still waiting for its approval has run, so nothing can be retried yet.
  if (row.status === "unapproved") throw new AppError("ACTION_NEED_APPROVED");
  const failed = await executionsRepo(ctx.db).findExecutions(
    domainId,
    { commandId: id, statuses: ["failed", "timed_out", "attempts_exceeded", "expired"] },
    100_000,
    0,
  );
  if (failed.length === 0) throw new AppError("TARGETS_NOT_SPECIFIED", "No execution of the command failed");
  const isCustom = row.type !== row.wire_type;
  const { script: _script, ...args } = row.args;
  const saved = row.script_id && row.script_version !== null ? row.script_id : undefined;
  return {
    input: {
      type: row.type,
      args: isCustom ? args : row.args,
      file_id: row.file_id ?? undefined,
      // A saved script or template is used again at the version the command recorded, not its latest.
      template_id: row.script_kind === "template" ? saved : undefined,
      script_id: row.script_kind === "script" ? saved : undefined,
      targets: { devices: failed.map((execution) => execution.device_id), tags: [], all: false },
      delayed_until: null,
      run_until:
        row.run_until && row.run_until.getTime() > ctx.now().getTime() ? row.run_until.getTime() : null,
    },
    scriptVersion: saved ? (row.script_version ?? undefined) : undefined,
  };
}
