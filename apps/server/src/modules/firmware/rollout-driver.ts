import { randomUUID } from "node:crypto";
import {
  FIRMWARE_STATUS,
  firmwareVersionFromFilename,
  type RolloutProgress,
  type RolloutStartRequest,
  type RolloutStatus,
  rolloutGate,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import type { FirmwareRolloutRow } from "../../platform/db/schema-firmware";
import { AppError } from "../../platform/errors";
import { postSystemNews } from "../notifications/system-news";
import { firmwareRepo } from "./firmware.repo";
import { rolloutRepo } from "./rollout.repo";
import { dryRunRollout } from "./rollout.service";
import { heldOf, topUpStage } from "./rollout-send";
import { advanceAndPublish, publishRollout } from "./software-live";

// The rollout driver (ADR 021): a started rollout and the `rollout.advance` job that moves it.

export const ROLLOUT_ADVANCE_JOB = "rollout.advance";
/** How often a running rollout is looked at. */
export const ROLLOUT_ADVANCE_EVERY_MS = 5_000;
/** The outbox event a paused rollout emits (notifications, audit). */
export const ROLLOUT_PAUSED_EVENT = "rollout.paused";

/** What {@link ROLLOUT_PAUSED_EVENT} carries. */
export interface RolloutPausedPayload {
  rolloutId: string;
  ruleId: string;
  stage: number;
  reason: string;
}

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "rollout.advance": { rolloutId: string; tick: number };
  }
}

declare module "../../platform/jobs/outbox-events" {
  interface OutboxPayloads {
    "rollout.paused": RolloutPausedPayload;
  }
}

const FAILED_EXECUTIONS = new Set(["failed", "expired", "cancelled", "timed_out", "attempts_exceeded"]);

/** Queues the next advance: `tick` moves on, so an older queued advance finds itself stale. */
async function queueAdvance(ctx: AppContext, trx: Kysely<DB>, rollout: FirmwareRolloutRow, delayMs: number) {
  const tick = rollout.tick + 1;
  await rolloutRepo(trx).updateRollout(rollout.id, { tick });
  await ctx.jobs.enqueue(trx, {
    kind: ROLLOUT_ADVANCE_JOB,
    payload: { rolloutId: rollout.id, tick },
    dedupeKey: `${ROLLOUT_ADVANCE_JOB}:${rollout.id}:${tick}`,
    runAt: new Date(ctx.now().getTime() + delayMs),
  });
}

function optionsOf(rollout: FirmwareRolloutRow): RolloutStartRequest {
  return rollout.options as unknown as RolloutStartRequest;
}

/** POST /api/software/{id}/rollout: plans as the dry run does and starts the canary. */
export async function startRollout(
  ctx: AppContext,
  ruleId: string,
  options: RolloutStartRequest,
  authorId: string,
): Promise<RolloutProgress> {
  const rule = await firmwareRepo(ctx.db).findRule(ruleId);
  if (!rule) throw new AppError("RULE_NOT_FOUND", "No such software rule");
  if (rule.status !== FIRMWARE_STATUS.ready || !rule.filename || !rule.file_key)
    throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Only a ready rule (its file fetched) rolls out");
  const plan = await dryRunRollout(ctx, ruleId, options);
  // Routers on a weak link now are a last stage after the waves, held with their reason (ADR 021).
  const stages: Array<Array<{ _id: string; domain_id: string; reason?: string }>> =
    plan.waiting.length > 0 ? [...plan.stages, plan.waiting] : plan.stages;
  const linkStage = plan.waiting.length > 0 ? stages.length - 1 : null;
  const total = stages.reduce((sum, stage) => sum + stage.length, 0);
  if (total === 0) throw new AppError("BAD_REQUEST", "No router would take this rollout now");
  const now = ctx.now();
  const id = randomUUID();
  const row: FirmwareRolloutRow = {
    id,
    rule_id: rule.id,
    version: firmwareVersionFromFilename(rule.filename),
    file_key: rule.file_key,
    options: options as unknown as Record<string, unknown>,
    status: "running",
    stage: 0,
    stage_count: stages.length,
    link_stage: linkStage,
    total,
    window_start: options.window?.start ?? null,
    window_end: options.window?.end ?? null,
    pause_reason: null,
    tick: 0,
    author_id: authorId,
    create_time: now,
    update_time: now,
  };
  await ctx.jobs.transaction(async (trx) => {
    await rolloutRepo(trx).insertRolloutAcrossDomains({ ...row, options: JSON.stringify(options) }, [
      ...stages.flatMap((stage, index) =>
        stage.map((router) => ({
          device_id: router._id,
          domain_id: router.domain_id,
          stage: index,
          state: "waiting",
          reason: router.reason ?? null,
        })),
      ),
    ]);
    await queueAdvance(ctx, trx, row, 0);
  });
  return publishRollout(ctx, await getRollout(ctx, id));
}

/** GET progress: counts per stage and the failures with their reasons. */
export async function getRollout(ctx: AppContext, id: string): Promise<RolloutProgress> {
  const repo = rolloutRepo(ctx.db);
  const rollout = await repo.findRollout(id);
  if (!rollout) throw new AppError("TASK_NOT_FOUND", "No such rollout");
  const stages = Array.from({ length: rollout.stage_count }, () => ({
    waiting: 0,
    sent: 0,
    succeeded: 0,
    failed: 0,
    skipped: 0,
  }));
  for (const row of await repo.countTargetsAcrossDomains(id)) {
    const stage = stages[row.stage];
    if (stage && row.state in stage) stage[row.state as keyof typeof stage] = row.count;
  }
  return {
    _id: rollout.id,
    rule_id: rollout.rule_id,
    version: rollout.version,
    status: rollout.status as RolloutStatus,
    stage: rollout.stage,
    pause_reason: rollout.pause_reason,
    total: rollout.total,
    options: optionsOf(rollout),
    stages,
    link_stage: rollout.link_stage,
    held: heldOf(await repo.countHeldAcrossDomains(id)),
    failures: await repo.listFailuresAcrossDomains(id),
    create_time: rollout.create_time.toISOString(),
    update_time: rollout.update_time.toISOString(),
  };
}

/** The rule's newest rollout, or null when it never rolled out. */
export async function getLatestRollout(ctx: AppContext, ruleId: string): Promise<RolloutProgress | null> {
  if (!(await firmwareRepo(ctx.db).findRule(ruleId)))
    throw new AppError("RULE_NOT_FOUND", "No such software rule");
  const latest = await rolloutRepo(ctx.db).findLatestRollout(ruleId);
  return latest ? getRollout(ctx, latest.id) : null;
}

/** Pause, resume, cancel or retry the failed: a change of status that the next advance acts on. */
export async function controlRollout(
  ctx: AppContext,
  id: string,
  action: "pause" | "resume" | "cancel" | "retry",
): Promise<RolloutProgress> {
  await ctx.jobs.transaction(async (trx) => {
    const repo = rolloutRepo(trx);
    const rollout = await repo.lockRollout(id);
    if (!rollout) throw new AppError("TASK_NOT_FOUND", "No such rollout");
    const now = ctx.now();
    const isOver = rollout.status === "cancelled" || rollout.status === "completed";
    if (action === "pause") {
      if (rollout.status !== "running")
        throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Only a running rollout pauses");
      await repo.updateRollout(id, {
        status: "paused",
        pause_reason: "by hand",
        update_time: now,
      });
      return;
    }
    if (action === "cancel") {
      if (isOver) throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The rollout is over already");
      await repo.updateRollout(id, { status: "cancelled", update_time: now });
      // Commands already sent run on; nothing more is sent.
      await repo.skipWaitingAcrossDomains(id, "cancelled", now);
      return;
    }
    if (action === "retry") {
      if (rollout.status === "cancelled")
        throw new AppError("OPERATION_IS_NOT_SUPPORTED", "A cancelled rollout is not retried");
      await repo.retryFailedAcrossDomains(id, now);
      const first = await repo.firstOpenStageAcrossDomains(id);
      if (first !== null && first < rollout.stage) rollout.stage = first;
    } else if (rollout.status !== "paused") {
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Only a paused rollout resumes");
    }
    await repo.updateRollout(id, {
      status: "running",
      stage: rollout.stage,
      pause_reason: null,
      update_time: now,
    });
    await queueAdvance(ctx, trx, rollout, 0);
  });
  return publishRollout(ctx, await getRollout(ctx, id));
}

/**
 * One advance of a running rollout, in one transaction on its locked row: counts the sent targets
 * (succeeded when the router reports the version, failed when its execution failed or the
 * deadline passed), applies the gate (pause and notify, next stage, done), tops the stage up to the
 * concurrency cap inside the window, and queues the next advance.
 */
export async function advanceRollout(ctx: AppContext, rolloutId: string, tick: number): Promise<void> {
  await ctx.jobs.transaction(async (trx) => {
    const repo = rolloutRepo(trx);
    const rollout = await repo.lockRollout(rolloutId);
    if (!rollout || rollout.tick !== tick) return;
    if (rollout.status !== "running" && rollout.status !== "paused") return;
    const options = optionsOf(rollout);
    const now = ctx.now();
    for (const sent of await repo.listSentAcrossDomains(rolloutId)) {
      if (sent.firmware === rollout.version) {
        await repo.moveTargetAcrossDomains(rolloutId, sent.device_id, {
          state: "succeeded",
          update_time: now,
        });
      } else if (sent.execution_status && FAILED_EXECUTIONS.has(sent.execution_status)) {
        await repo.moveTargetAcrossDomains(rolloutId, sent.device_id, {
          state: "failed",
          reason: `command ${sent.execution_status}`,
          update_time: now,
        });
      } else if (sent.deadline && sent.deadline.getTime() <= now.getTime()) {
        await repo.moveTargetAcrossDomains(rolloutId, sent.device_id, {
          state: "failed",
          reason: "did not come back on the version before the deadline",
          update_time: now,
        });
      }
    }
    if (rollout.status === "paused") {
      // A paused rollout sends nothing new but still counts the routers under way.
      const isUnderWay = (await repo.countTargetsAcrossDomains(rolloutId)).some(
        (row) => row.state === "sent",
      );
      if (isUnderWay) await queueAdvance(ctx, trx, rollout, ROLLOUT_ADVANCE_EVERY_MS);
      return;
    }
    let stage = rollout.stage;
    for (;;) {
      const counts = await repo.countTargetsAcrossDomains(rolloutId);
      const ofStage = (state: string) =>
        counts
          .filter((row) => row.stage === stage && row.state === state)
          .reduce((sum, row) => sum + row.count, 0);
      const failed = counts.filter((row) => row.state === "failed").reduce((sum, row) => sum + row.count, 0);
      const gate = rolloutGate(
        {
          total: counts.filter((row) => row.stage === stage).reduce((sum, row) => sum + row.count, 0),
          succeeded: ofStage("succeeded"),
          failed: ofStage("failed"),
        },
        { total: rollout.total, failed },
        stage >= rollout.stage_count - 1,
        options,
      );
      if (gate === "pause") {
        const reason = `${failed} of ${rollout.total} failed at stage ${stage}`;
        await repo.updateRollout(rolloutId, {
          status: "paused",
          stage,
          pause_reason: reason,
          update_time: now,
        });
        await ctx.jobs.emit(trx, ROLLOUT_PAUSED_EVENT, { rolloutId, ruleId: rollout.rule_id, stage, reason });
        await queueAdvance(ctx, trx, rollout, ROLLOUT_ADVANCE_EVERY_MS);
        return;
      }
      if (gate === "done") {
        await repo.updateRollout(rolloutId, { status: "completed", stage, update_time: now });
        return;
      }
      if (gate === "wait") break;
      stage += 1;
    }
    await topUpStage(ctx, trx, rollout, stage, now);
    await repo.updateRollout(rolloutId, { stage, update_time: now });
    await queueAdvance(ctx, trx, { ...rollout, stage }, ROLLOUT_ADVANCE_EVERY_MS);
  });
}

/** Registers the advance job: at least once and idempotent (a stale tick returns). */
export function registerRolloutJobs(ctx: AppContext): void {
  ctx.jobs.register(ROLLOUT_ADVANCE_JOB, {
    maxAttempts: 10,
    // Its progress goes to root's screens after the commit when the advance changed it.
    handle: async ({ payload, attempt }) =>
      advanceAndPublish(
        ctx,
        { rolloutId: payload.rolloutId, attempt },
        (id) => getRollout(ctx, id),
        () => advanceRollout(ctx, payload.rolloutId, payload.tick),
      ),
  });
  // The superusers' in-app notification of a pause (the rollout is theirs); once per pause.
  ctx.jobs.subscribe(ROLLOUT_PAUSED_EVENT, "news", {
    handle: async ({ payload }) =>
      postSystemNews(ctx, null, {
        level: "error",
        title: "Firmware rollout paused",
        text: `Rollout ${payload.rolloutId}: ${payload.reason}`,
      }),
  });
}
