import type { RolloutProgress, SoftwareRule, SoftwareSocketContent } from "@cellfleet/contract";
import { SUPERUSERS_TOPIC } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import { toSoftwareRule } from "./firmware.mapper";
import { firmwareRepo } from "./firmware.repo";

// The software screens' realtime pushes (issue 16, ADR 021): a `software` message on the superusers'
// topic (rules and rollouts are root's; the socket passes it only to `software.view`) after the
// commit that changed a rule or a rollout. As every realtime push, best-effort: the state is in the
// database, a lost push is made good by the browser's re-read after a reconnect, or by the next
// push of the same rollout (each carries its whole progress). Inside a request's unit of work
// `ctx.bus` holds the publish until the commit (`deferPublishesToCommit`); a job calls these after
// its own transaction returned.

type LiveContext = Pick<AppContext, "db" | "bus" | "log">;

async function push(ctx: LiveContext, content: Partial<SoftwareSocketContent>): Promise<void> {
  try {
    const full: SoftwareSocketContent = { rules: [], deleted: [], rollouts: [], ...content };
    await ctx.bus.publish(SUPERUSERS_TOPIC, { type: "software", content: full });
  } catch (error) {
    ctx.log.error({ err: error }, "publishing a software message failed");
  }
}

/** Pushes a rule as a service answered it (created, saved, sync asked); answers it unchanged. */
export async function publishRule(ctx: LiveContext, rule: SoftwareRule): Promise<SoftwareRule> {
  await push(ctx, { rules: [rule] });
  return rule;
}

/** Pushes a rule as it is now (a fetch step committed), or its deletion when it is gone. */
export async function publishRuleById(ctx: LiveContext, ruleId: string): Promise<void> {
  try {
    const row = await firmwareRepo(ctx.db).findRule(ruleId);
    await push(ctx, row ? { rules: [toSoftwareRule(row)] } : { deleted: [ruleId] });
  } catch (error) {
    ctx.log.error({ err: error, ruleId }, "reading a software rule to push failed");
  }
}

/** Pushes a deleted rule's id. */
export function publishRuleDeleted(ctx: LiveContext, ruleId: string): Promise<void> {
  return push(ctx, { deleted: [ruleId] });
}

/** Pushes a rollout's progress as a start or a control answered it; answers it unchanged. */
export async function publishRollout(ctx: LiveContext, progress: RolloutProgress): Promise<RolloutProgress> {
  await push(ctx, { rollouts: [progress] });
  return progress;
}

/** What a push would change on screen: the progress without its update time (every advance moves it). */
function signatureOf(progress: RolloutProgress | null): string {
  return progress === null ? "" : JSON.stringify({ ...progress, update_time: "" });
}

/**
 * Runs one advance of a rollout (`advance`, its own transaction) and then pushes the rollout's
 * progress if the advance changed it: a router sent, succeeded or failed, a stage started or
 * finished, a pause, the end. A retried attempt pushes whatever it finds, since the attempt
 * before may have committed and stopped before its push (the retry then finds its tick stale and
 * changes nothing). An advance that throws pushes nothing: it rolled back.
 */
export async function advanceAndPublish(
  ctx: LiveContext,
  run: { rolloutId: string; attempt: number },
  read: (rolloutId: string) => Promise<RolloutProgress>,
  advance: () => Promise<void>,
): Promise<void> {
  const readOrNull = async () => {
    try {
      return await read(run.rolloutId);
    } catch (error) {
      ctx.log.warn({ err: error, rolloutId: run.rolloutId }, "reading a rollout to push failed");
      return null;
    }
  };
  const before = run.attempt > 1 ? null : await readOrNull();
  await advance();
  const after = await readOrNull();
  if (after !== null && (before === null || signatureOf(before) !== signatureOf(after)))
    await push(ctx, { rollouts: [after] });
}
