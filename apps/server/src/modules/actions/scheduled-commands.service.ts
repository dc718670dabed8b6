import { randomUUID } from "node:crypto";
import { initialExecutionStatus } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import { type DB, toJsonb } from "../../platform/db/schema";
import { commandsRepo } from "./commands.repo";
import { enqueuePump } from "./delivery.service";
import { executionsRepo } from "./executions.repo";
import { publishCommandChanges, recountCommands } from "./executions.service";

/** The author a schedule's commands name: no person, so nobody's approval is asked (spec section 6 is about people). */
export const SCHEDULE_AUTHOR_ID = "system";

/** What a schedule rule's firing asks of the actions feature. */
export interface ScheduledCommandInput {
  ruleId: string;
  ruleName: string;
  type: "backup" | "journal";
  targets: { all: boolean; tags: readonly string[] };
  /** The occurrence being fired: with the rule, unique among commands (migration 0021). */
  occurrence: Date;
  /** The next occurrence: an execution still queued then has expired instead of waiting on. */
  runUntil: Date;
}

/** What a firing made. */
export interface ScheduledCommandResult {
  /** The command, or null when no router matched (nothing is written). */
  commandId: string | null;
  targets: number;
  /** Routers whose hello did not name the type: left out rather than sent to fail. */
  unsupported: number;
}

/**
 * Writes a schedule's backup or journal command in the caller's transaction: the routers that
 * match the rule now (all, or any of its tags), one execution each, queued for delivery at once;
 * authored by the system, so no approval is asked, and valid until the rule's next occurrence.
 */
export async function createScheduledCommand(
  ctx: Pick<AppContext, "jobs" | "now">,
  trx: Kysely<DB>,
  domainId: string,
  input: ScheduledCommandInput,
): Promise<ScheduledCommandResult> {
  const repo = commandsRepo(trx);
  const matched = await repo.findTargetDevices(
    domainId,
    {
      devices: [],
      tags: input.targets.all ? [] : input.targets.tags,
      all: input.targets.all,
      // A schedule runs as the domain's, not as a person's: no tag scope (ADR 041).
    },
    [],
  );
  const devices = matched.filter(
    (device) => device.command_types === null || device.command_types.split(",").includes(input.type),
  );
  const result = { targets: devices.length, unsupported: matched.length - devices.length };
  if (devices.length === 0) return { commandId: null, ...result };
  const id = randomUUID();
  const now = ctx.now();
  const status = initialExecutionStatus({ needsApproval: false, isDelayed: false });
  await repo.insertCommand(domainId, {
    id,
    type: input.type,
    wire_type: input.type,
    args: toJsonb({}),
    file_id: null,
    targets: toJsonb({ devices: [], tags: [...input.targets.tags], all: input.targets.all }),
    status: "in_progress",
    needs_approval: false,
    author_id: SCHEDULE_AUTHOR_ID,
    author_name: input.ruleName,
    author_role: 2,
    author_is_junior: false,
    delayed_until: null,
    run_until: input.runUntil,
    total: devices.length,
    counts: toJsonb({}),
    create_time: now,
    update_time: now,
    schedule_rule_id: input.ruleId,
    schedule_occurrence: input.occurrence,
  });
  await executionsRepo(trx).insertExecutions(
    domainId,
    devices.map((device) => ({
      id: randomUUID(),
      command_id: id,
      device_id: device.id,
      status,
      rendered: null,
      create_time: now,
      update_time: now,
    })),
  );
  await recountCommands(trx, domainId, [id], now);
  await enqueuePump(
    ctx,
    trx,
    devices.map((device) => device.id),
  );
  return { commandId: id, ...result };
}

/** After the firing committed: the command on the socket, as a person's command is. */
export async function announceScheduledCommand(
  ctx: Pick<AppContext, "db" | "bus" | "log">,
  domainId: string,
  commandId: string,
): Promise<void> {
  await publishCommandChanges(ctx, domainId, [commandId]);
}
