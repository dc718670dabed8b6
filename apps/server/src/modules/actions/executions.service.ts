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

/** Recounts commands' executions and stores each command's status (the contract's commandStatusOf). */
export async function recountCommands(
  trx: Kysely<DB>,
  domainId: string,
  commandIds: Iterable<string>,
  now: Date,
): Promise<void> {
  const executions = executionsRepo(trx);
  const commands = commandsRepo(trx);
  for (const commandId of new Set(commandIds)) {
    const counts: ExecutionCounts = {};
    for (const row of await executions.countByStatus(domainId, commandId)) counts[row.status] = row.n;
    await commands.setCommandCounts(domainId, commandId, counts, commandStatusOf(counts), now);
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
