import { randomUUID } from "node:crypto";
import {
  FIRMWARE_STATUS,
  firmwareVersionFromFilename,
  type RolloutProgress,
  type RolloutStartRequest,
  rolloutGate,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import type { FirmwareRolloutDomainRow, FirmwareRolloutRow } from "../../platform/db/schema-firmware";
import { AppError } from "../../platform/errors";
import { postSystemNews } from "../notifications/system-news";
import { findDomainRolloutSettings } from "../settings/settings.service";
import { firmwareRepo } from "./firmware.repo";
import { rolloutRepo } from "./rollout.repo";
import { dryRunRollout } from "./rollout.service";
import { rolloutOffersRepo } from "./rollout-offers.repo";
import { getRollout } from "./rollout-progress";
import { topUpStage } from "./rollout-send";
import { advanceAndPublish, publishRollout } from "./software-live";

// The rollout driver (ADR 021): a started rollout and the `rollout.advance` job that moves it.

export const ROLLOUT_ADVANCE_JOB = "rollout.advance";
/** How often a running rollout is looked at. */
export const ROLLOUT_ADVANCE_EVERY_MS = 5_000;
/** The outbox event a paused rollout emits (notifications, audit). */
export const ROLLOUT_PAUSED_EVENT = "rollout.paused";

/** The outbox event of a rollout offered to a domain (ADR 031): its admins get a notice. */
export const ROLLOUT_OFFERED_EVENT = "rollout.offered";

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
    "rollout.offered": { rolloutId: string; domainId: string; version: string; isAccepted: boolean };
  }
}

const FAILED_EXECUTIONS = new Set(["failed", "expired", "cancelled", "timed_out", "attempts_exceeded"]);

/** Queues the next advance: `tick` moves on, so an older queued advance finds itself stale. */
export async function queueAdvance(
  ctx: AppContext,
  trx: Kysely<DB>,
  rollout: FirmwareRolloutRow,
  delayMs: number,
) {
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
  // Offered to each domain whose routers it takes: one that accepts by its setting is accepted now,
  // with its own window; the others' routers are held ('offer') until their admin answers (ADR 031).
  const offers: FirmwareRolloutDomainRow[] = [];
  for (const domain of plan.domains) {
    const setting = await findDomainRolloutSettings(ctx, domain._id);
    offers.push({
      rollout_id: id,
      domain_id: domain._id,
      state: setting.auto_accept ? "accepted" : "offered",
      auto: setting.auto_accept,
      window_start: setting.auto_accept ? (setting.window?.start ?? null) : null,
      window_end: setting.auto_accept ? (setting.window?.end ?? null) : null,
      decided_by: null,
      decide_time: setting.auto_accept ? now : null,
      create_time: now,
    });
  }
  const isAccepted = new Set(offers.filter((o) => o.state === "accepted").map((o) => o.domain_id));
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
          reason: isAccepted.has(router.domain_id) ? (router.reason ?? null) : "offer",
        })),
      ),
    ]);
    await rolloutOffersRepo(trx).insertOffersAcrossDomains(offers);
    for (const offer of offers)
      await ctx.jobs.emit(trx, ROLLOUT_OFFERED_EVENT, {
        rolloutId: id,
        domainId: offer.domain_id,
        version: row.version,
        isAccepted: offer.state === "accepted",
      });
    await queueAdvance(ctx, trx, row, 0);
  });
  return publishRollout(ctx, await getRollout(ctx, id));
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
      // A stage is judged on the routers of domains that accepted (ADR 031): those waiting for
      // their domain's answer and those a decline skipped do not hold it up; they are sent, once
      // accepted, beside a later stage. A stage none of whose routers may go yet waits while no
      // router of the rollout has been updated: the canary is never skipped for want of an answer.
      const offerHeld = counts
        .filter((row) => row.stage === stage && row.state === "waiting")
        .reduce((sum, row) => sum + row.offer, 0);
      const stageTotal =
        counts.filter((row) => row.stage === stage).reduce((sum, row) => sum + row.count, 0) -
        ofStage("skipped") -
        offerHeld;
      const hasSucceeded = counts.some((row) => row.state === "succeeded");
      if (stageTotal === 0 && offerHeld > 0 && !hasSucceeded) break;
      let gate = rolloutGate(
        { total: stageTotal, succeeded: ofStage("succeeded"), failed: ofStage("failed") },
        { total: rollout.total, failed },
        stage >= rollout.stage_count - 1,
        options,
      );
      // Not done while a router of any stage still waits (for its domain's answer) or is under way.
      if (gate === "done" && counts.some((row) => row.state === "waiting" || row.state === "sent"))
        gate = "wait";
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
  // The domain's notice of a rollout offered to it (ADR 031), in both languages: the news carries
  // text, not keys. The console's offers list says the same in the person's language.
  ctx.jobs.subscribe(ROLLOUT_OFFERED_EVENT, "news", {
    handle: async ({ payload }) =>
      postSystemNews(
        ctx,
        payload.domainId,
        payload.isAccepted
          ? {
              level: "info",
              title: "Firmware update accepted automatically / Обновление прошивки принято автоматически",
              text: `${payload.version}: the domain's settings accept rollouts / настройки домена принимают обновления`,
            }
          : {
              level: "warning",
              title: "Firmware update offered / Предложено обновление прошивки",
              text: `${payload.version}: accept or decline it in Settings / примите или отклоните его в Настройках`,
            },
      ),
  });
}
