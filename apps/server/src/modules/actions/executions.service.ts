import {
  type CommandsSocketContent,
  commandStatusOf,
  type ExecutionCounts,
  type ExecutionEvent,
  type ExecutionStatus,
  isExecutionFinal,
  nextExecutionStatus,
  statusesMovedBy,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { domainTopic } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { toCommandDto, toExecutionDto } from "./actions.mapper";
import { commandsRepo } from "./commands.repo";
import { type ExecutionChanges, executionsRepo } from "./executions.repo";

// The only place an execution's status is written: every move goes through the contract's
// `nextExecutionStatus`, and the command's status is recounted from its executions right after.

/** An execution that moved. */
export interface MovedExecution {
  id: string;
  command_id: string;
  device_id: string;
  status: ExecutionStatus;
}

/** Which executions an event is applied to: a command's, or these ids (optionally of these routers). */
export interface ExecutionSelection {
  commandId?: string;
  ids?: readonly string[];
  deviceIds?: readonly string[];
}

/**
 * Applies an event to the selected executions in the caller's transaction: each moves to what the
 * state machine answers for its status; those it does not move stay. Final moves get their finish time.
 */
export async function moveExecutions(
  trx: Kysely<DB>,
  domainId: string,
  where: ExecutionSelection,
  event: ExecutionEvent,
  now: Date,
  changes: ExecutionChanges = {},
): Promise<MovedExecution[]> {
  const byTarget = new Map<ExecutionStatus, ExecutionStatus[]>();
  for (const from of statusesMovedBy(event)) {
    const to = nextExecutionStatus(from, event) as ExecutionStatus;
    byTarget.set(to, [...(byTarget.get(to) ?? []), from]);
  }
  const repo = executionsRepo(trx);
  const moved: MovedExecution[] = [];
  for (const [to, from] of byTarget) {
    const finish = isExecutionFinal(to) ? { finish_time: now } : {};
    const rows = await repo.moveExecutions(domainId, where, from, to, now, { ...changes, ...finish });
    for (const row of rows) moved.push({ ...row, status: to });
  }
  return moved;
}

/** One router report on one of its executions, as the state machine reads it. */
export interface ExecutionReport {
  id: string;
  event: ExecutionEvent;
  /** The router's completion code (final reports), its output, and its progress (running ones). */
  code: number | null;
  output: string;
  progress: number | null;
}

/** An execution a batch of router reports moved (or, with `from` = `to`, whose progress it updated). */
export interface ReportedMove {
  id: string;
  from: ExecutionStatus;
  to: ExecutionStatus;
  isFinal: boolean;
}

/**
 * Applies routers' reports, in order, to their executions (`rows`, as stored) in the caller's
 * transaction: each execution's moves are worked out by the state machine from its stored status
 * through every report of the batch, then written in one statement, each only if still in the
 * status it was read in. A `running` while in progress updates the progress; a repeat or a late
 * report moves nothing. Answers the moves written.
 */
export async function applyExecutionReports(
  trx: Kysely<DB>,
  rows: ReadonlyArray<{ id: string; status: ExecutionStatus }>,
  reports: readonly ExecutionReport[],
  now: Date,
): Promise<ReportedMove[]> {
  const stored = new Map(rows.map((row) => [row.id, row.status]));
  const planned = new Map<string, ReportedMove & Omit<ExecutionReport, "id" | "event">>();
  for (const report of reports) {
    const from = stored.get(report.id);
    if (from === undefined) continue;
    const current = planned.get(report.id)?.to ?? from;
    const next = nextExecutionStatus(current, report.event);
    const isProgress = next === null && report.event.type === "running" && current === "in_progress";
    if (next === null && !isProgress) continue;
    const to = next ?? current;
    const isFinished = report.event.type === "finished";
    planned.set(report.id, {
      id: report.id,
      from,
      to,
      code: isFinished ? report.code : null,
      output: report.output,
      progress: isFinished ? null : report.progress,
      isFinal: isExecutionFinal(to),
    });
  }
  const moves = [...planned.values()];
  const written = new Set(await executionsRepo(trx).applyMovesAcrossDomains(moves, now));
  return moves
    .filter((move) => written.has(move.id))
    .map(({ id, from, to, isFinal }) => ({ id, from, to, isFinal }));
}

/**
 * Recounts commands' executions and stores each command's status (the contract's commandStatusOf).
 * The commands' rows are locked first (in id order), so a count never misses a concurrent
 * transaction's shift (each statement then sees what committed before the lock was granted).
 */
export async function recountCommands(
  trx: Kysely<DB>,
  domainId: string,
  commandIds: Iterable<string>,
  now: Date,
): Promise<void> {
  const executions = executionsRepo(trx);
  const commands = commandsRepo(trx);
  const locked = await commands.lockCommandCounts(domainId, [...new Set(commandIds)]);
  for (const { id } of locked) {
    const counts: ExecutionCounts = {};
    for (const row of await executions.countByStatus(domainId, id)) counts[row.status] = row.n;
    await commands.setCommandCounts(domainId, id, counts, commandStatusOf(counts), now);
  }
}

/**
 * Shifts commands' counts by their executions' moves (one less in `from`, one more in `to`) and
 * stores each command's status, without counting the executions again: the cheap recount of the
 * ingest transaction, where grouping a 10,000-router command's executions for every batch of
 * statuses would cost the most. Rows are locked in id order, as by recountCommands.
 */
export async function shiftCommandCounts(
  trx: Kysely<DB>,
  domainId: string,
  moves: ReadonlyArray<{ command_id: string; from: ExecutionStatus; to: ExecutionStatus }>,
  now: Date,
): Promise<void> {
  const shifts = new Map<string, Partial<Record<ExecutionStatus, number>>>();
  for (const move of moves) {
    if (move.from === move.to) continue;
    const shift = shifts.get(move.command_id) ?? {};
    shift[move.from] = (shift[move.from] ?? 0) - 1;
    shift[move.to] = (shift[move.to] ?? 0) + 1;
    shifts.set(move.command_id, shift);
  }
  const commands = commandsRepo(trx);
  for (const row of await commands.lockCommandCounts(domainId, [...shifts.keys()])) {
    const counts: ExecutionCounts = { ...row.counts };
    for (const [status, by] of Object.entries(shifts.get(row.id) ?? {}) as Array<[ExecutionStatus, number]>) {
      const n = (counts[status] ?? 0) + by;
      if (n > 0) counts[status] = n;
      else delete counts[status];
    }
    await commands.setCommandCounts(domainId, row.id, counts, commandStatusOf(counts), now);
  }
}

/** Executions pushed one by one at most; past this the page reads them again from the counts. */
const PUSHED_EXECUTIONS_MAX = 200;

/**
 * Pushes changed commands (and, when few, their changed executions) to the domain's sockets after
 * commit. Best-effort, like every realtime push: a browser re-reads after reconnecting.
 */
export async function publishCommandChanges(
  ctx: Pick<AppContext, "db" | "bus" | "log">,
  domainId: string,
  commandIds: Iterable<string>,
  executionIds: readonly string[] = [],
): Promise<void> {
  try {
    const commands = [];
    for (const id of new Set(commandIds)) {
      const row = await commandsRepo(ctx.db).findCommand(domainId, id);
      if (row) commands.push(toCommandDto(row));
    }
    const rows =
      executionIds.length > 0 && executionIds.length <= PUSHED_EXECUTIONS_MAX
        ? await executionsRepo(ctx.db).findExecutionDtos(domainId, executionIds)
        : [];
    const content: CommandsSocketContent = { commands, executions: rows.map(toExecutionDto) };
    if (commands.length > 0 || content.executions.length > 0)
      await ctx.bus.publish(domainTopic(domainId), { type: "commands", content });
  } catch (error) {
    ctx.log.error({ err: error, domainId }, "publishing a commands message failed");
  }
}
