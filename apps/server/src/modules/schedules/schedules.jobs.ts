import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import type { NoPayload } from "../../platform/jobs/jobs";
import {
  announceScheduledCommand,
  createScheduledCommand,
  type ScheduledCommandResult,
} from "../actions/scheduled-commands.service";
import { DOMAIN_TIME_ZONE_CHANGED_JOB, findDomainTimeZone } from "../settings/settings.service";
import { nextOccurrence } from "./occurrences";
import { schedulesRepo } from "./schedules.repo";

// A rule's firings as durable jobs (ADR 007, ADR 020): each occurrence is one job, due at the
// occurrence, keyed by rule and occurrence. The firing locks the rule and fires only the occurrence
// the rule still waits for, writes the command and the next occurrence's job in one transaction:
// so an occurrence makes one command across nodes, retries and restarts, and an edited or switched
// off rule's old job does nothing.

/** The job kind of one occurrence of a rule. */
export const SCHEDULE_FIRE_JOB = "schedules.fire";
/** The periodic look for due rules without a live job (a job that died, a clock that jumped). */
export const SCHEDULE_CATCH_UP_JOB = "schedules.catchUp";
/** How often the catch-up looks. */
export const SCHEDULE_CATCH_UP_INTERVAL_MS = 60_000;
/** Without a next occurrence, a firing's commands wait this long for offline routers. */
const FALLBACK_RUN_MS = 24 * 3600_000;

interface FirePayload {
  ruleId: string;
  /** The occurrence, ms. */
  occurrence: number;
}

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "schedules.fire": FirePayload;
    "schedules.catchUp": NoPayload;
  }
}

/** Queues the firing of a rule's occurrence, in the caller's transaction (a second one is a no-op). */
export async function enqueueFiring(
  ctx: Pick<AppContext, "jobs">,
  trx: Kysely<DB>,
  domainId: string,
  ruleId: string,
  occurrence: Date,
): Promise<void> {
  const payload: FirePayload = { ruleId, occurrence: occurrence.getTime() };
  await ctx.jobs.enqueue(trx, {
    kind: SCHEDULE_FIRE_JOB,
    domainId,
    payload: { ...payload },
    runAt: occurrence,
    dedupeKey: `${SCHEDULE_FIRE_JOB}:${ruleId}:${occurrence.getTime()}`,
  });
}

/** What one firing did: null when the rule had moved on (edited, switched off, deleted, fired). */
export type FiringOutcome = (ScheduledCommandResult & { nextRun: Date | null }) | null;

/**
 * Fires a rule's occurrence if the rule still waits for it: the backup or journal command for the
 * routers matching now, valid until the next occurrence, and that occurrence queued.
 */
export async function fireOccurrence(
  ctx: AppContext,
  domainId: string,
  ruleId: string,
  occurrence: Date,
): Promise<FiringOutcome> {
  const outcome = await ctx.jobs.transaction(async (trx): Promise<FiringOutcome> => {
    const repo = schedulesRepo(trx);
    const rule = await repo.lockRule(domainId, ruleId);
    if (!rule?.active || rule.next_run?.getTime() !== occurrence.getTime()) return null;
    const now = ctx.now();
    // A firing late by a restart fires once, then goes on from now, not through every missed one.
    const after = now.getTime() > occurrence.getTime() ? now : occurrence;
    const nextRun = nextOccurrence(rule.regular, await findDomainTimeZone({ db: trx }, domainId), after);
    const result = await createScheduledCommand(ctx, trx, domainId, {
      ruleId,
      ruleName: rule.name,
      type: rule.type,
      targets: { all: rule.active_for === "all", tags: rule.tags },
      occurrence,
      runUntil: nextRun ?? new Date(after.getTime() + FALLBACK_RUN_MS),
    });
    await repo.updateRule(domainId, ruleId, {
      next_run: nextRun,
      last_run: occurrence,
      last_command_id: result.commandId ?? rule.last_command_id,
    });
    if (nextRun) await enqueueFiring(ctx, trx, domainId, ruleId, nextRun);
    return { ...result, nextRun };
  });
  if (outcome?.commandId) await announceScheduledCommand(ctx, domainId, outcome.commandId);
  return outcome;
}

/** Queues a firing for every due rule; a live job already holding the key makes it a no-op. */
export async function catchUpDueRules(ctx: AppContext): Promise<number> {
  const due = await schedulesRepo(ctx.db).findDueRulesAcrossDomains(ctx.now(), 500);
  if (due.length === 0) return 0;
  await ctx.jobs.transaction(async (trx) => {
    for (const rule of due) await enqueueFiring(ctx, trx, rule.domain_id, rule.id, rule.next_run);
  });
  return due.length;
}

/**
 * The domain's time zone changed: every active rule's next occurrence is worked out again from now
 * in the zone as it is now, and queued. Each rule is locked as a firing locks it; a firing already
 * queued for the old occurrence finds the rule moved on and does nothing. Running twice is harmless.
 */
export async function rescheduleDomainRules(ctx: AppContext, domainId: string): Promise<number> {
  return ctx.jobs.transaction(async (trx) => {
    const repo = schedulesRepo(trx);
    const zone = await findDomainTimeZone({ db: trx }, domainId);
    const now = ctx.now();
    let moved = 0;
    for (const { id } of await repo.listActiveRuleIds(domainId)) {
      const rule = await repo.lockRule(domainId, id);
      if (!rule?.active) continue;
      const nextRun = nextOccurrence(rule.regular, zone, now);
      if (nextRun?.getTime() === rule.next_run?.getTime()) continue;
      await repo.updateRule(domainId, id, { next_run: nextRun, update_time: now });
      if (nextRun) await enqueueFiring(ctx, trx, domainId, id, nextRun);
      moved += 1;
    }
    return moved;
  });
}

/** Registers the firing, the catch-up and the recomputation on a new domain time zone. */
export function registerScheduleJobs(ctx: AppContext): void {
  ctx.jobs.register(SCHEDULE_FIRE_JOB, {
    maxAttempts: 8,
    // 10,000 routers' executions in one transaction take seconds on a slow disk.
    timeoutMs: 5 * 60_000,
    handle: async ({ domainId, payload }) => {
      if (domainId === null) return;
      const outcome = await fireOccurrence(ctx, domainId, payload.ruleId, new Date(payload.occurrence));
      if (outcome)
        ctx.log.info(
          { ruleId: payload.ruleId, commandId: outcome.commandId, targets: outcome.targets },
          "schedule rule fired",
        );
    },
  });
  ctx.jobs.register(SCHEDULE_CATCH_UP_JOB, {
    handle: async () => {
      await catchUpDueRules(ctx);
    },
  });
  ctx.jobs.every(SCHEDULE_CATCH_UP_JOB, SCHEDULE_CATCH_UP_INTERVAL_MS);
  ctx.jobs.register(DOMAIN_TIME_ZONE_CHANGED_JOB, {
    handle: async ({ domainId }) => {
      if (domainId === null) return;
      const moved = await rescheduleDomainRules(ctx, domainId);
      ctx.log.info({ domainId, moved }, "schedule rules moved to the domain's time zone");
    },
  });
}
