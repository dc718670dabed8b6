import { COMMAND_CODES, type ExecutionEvent, type ExecutionStatus } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { type DeliveryTimings, enqueuePump } from "./delivery.service";
import { type ExecutionRow, executionsRepo } from "./executions.repo";
import {
  applyExecutionReports,
  moveExecutions,
  publishCommandChanges,
  recountCommands,
  shiftCommandCounts,
} from "./executions.service";

/** A router's command status as ingest hands it over (modules/ingest's CommandStatusReport). */
export interface RouterStatus {
  domain_id: string;
  device_id: string;
  message: {
    id: string;
    state: "accepted" | "running" | "completed" | "failed";
    code: number | null;
    output: string;
    progress?: number;
  };
}

function eventOf(status: RouterStatus["message"]): ExecutionEvent {
  if (status.state === "accepted") return { type: "accepted" };
  if (status.state === "running") return { type: "running" };
  return { type: "finished", code: status.code ?? COMMAND_CODES.failed };
}

/**
 * The ingest hook: moves executions by routers' statuses inside the ingest batch's transaction, so a
 * status is acknowledged to the router only once stored. A router speaks only of its own
 * executions; a repeat or a late status moves nothing. Commands' counts are shifted by the moves
 * (never counted again here). Routers that finished one and have more
 * queued get a pump job in the same transaction. Answers the realtime push to run after commit.
 */
export function createRouterStatusHook(ctx: AppContext) {
  return async (trx: Kysely<DB>, reports: readonly RouterStatus[]): Promise<() => Promise<void>> => {
    const now = ctx.now();
    const repo = executionsRepo(trx);
    const rows = await repo.findOwnExecutionsAcrossDomains(
      reports.map((report) => ({ id: report.message.id, device_id: report.device_id })),
    );
    const known = new Map(rows.map((row) => [row.id, row]));
    const moves = await applyExecutionReports(
      trx,
      rows,
      reports.map((report) => ({
        id: report.message.id,
        event: eventOf(report.message),
        code: report.message.code,
        output: report.message.output,
        progress: report.message.progress ?? null,
      })),
      now,
    );
    const touched = new Map<
      string,
      {
        commands: Set<string>;
        moves: Array<{ command_id: string; from: ExecutionStatus; to: ExecutionStatus }>;
        executions: Set<string>;
        finished: Set<string>;
      }
    >();
    for (const move of moves) {
      const row = known.get(move.id) as ExecutionRow;
      const entry = touched.get(row.domain_id) ?? {
        commands: new Set(),
        moves: [],
        executions: new Set(),
        finished: new Set(),
      };
      touched.set(row.domain_id, entry);
      if (move.to !== move.from) entry.commands.add(row.command_id);
      entry.moves.push({ command_id: row.command_id, from: move.from, to: move.to });
      entry.executions.add(row.id);
      if (move.isFinal) entry.finished.add(row.device_id);
    }
    for (const [domainId, entry] of touched) {
      await shiftCommandCounts(trx, domainId, entry.moves, now);
      const next = await repo.findDevicesWithStatus(domainId, [...entry.finished], ["queued"]);
      if (next.length > 0) await enqueuePump(ctx, trx, next);
    }
    return async () => {
      for (const [domainId, entry] of touched)
        await publishCommandChanges(ctx, domainId, entry.commands, [...entry.executions]);
    };
  };
}

/**
 * The watchdog (a periodic job): delayed executions whose time came are queued, unsent ones past
 * run-until expire (an approval lapses with them), ones sent or running without word for too long
 * time out, and routers whose head went unacknowledged are pumped again.
 */
export async function runWatchdog(ctx: AppContext, timings: DeliveryTimings): Promise<void> {
  const now = ctx.now();
  const repo = executionsRepo(ctx.db);
  const work = await repo.findWatchdogWorkAcrossDomains(
    now,
    new Date(now.getTime() - timings.watchdogMs),
    5000,
  );
  const groups = new Map<string, { domainId: string; event: ExecutionEvent; ids: string[] }>();
  for (const row of work) {
    const key = `${row.domain_id}\u0000${row.why}`;
    const event: ExecutionEvent =
      row.why === "expire" ? { type: "expire" } : row.why === "due" ? { type: "due" } : { type: "watchdog" };
    const group = groups.get(key) ?? { domainId: row.domain_id, event, ids: [] };
    group.ids.push(row.id);
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const moved = await ctx.jobs.transaction(async (trx) => {
      const changed = await moveExecutions(trx, group.domainId, { ids: group.ids }, group.event, now);
      await recountCommands(
        trx,
        group.domainId,
        changed.map((row) => row.command_id),
        now,
      );
      const devices = changed.map((row) => row.device_id);
      const next = await executionsRepo(trx).findDevicesWithStatus(group.domainId, devices, ["queued"]);
      if (next.length > 0) await enqueuePump(ctx, trx, next);
      return changed;
    });
    await publishCommandChanges(
      ctx,
      group.domainId,
      moved.map((row) => row.command_id),
      moved.map((row) => row.id),
    );
  }
  const unacknowledged = await repo.findUnacknowledgedDevicesAcrossDomains(
    new Date(now.getTime() - timings.ackTimeoutMs),
    5000,
  );
  if (unacknowledged.length > 0) await ctx.jobs.transaction((trx) => enqueuePump(ctx, trx, unacknowledged));
}
