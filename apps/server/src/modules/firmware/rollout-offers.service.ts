import type {
  RolloutAcceptRequest,
  RolloutOffer,
  RolloutOfferState,
  RolloutStatus,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { requireDeviceDomain } from "../devices/devices.service";
import { rolloutRepo } from "./rollout.repo";
import { queueAdvance } from "./rollout-driver";
import { type OfferRow, rolloutOffersRepo } from "./rollout-offers.repo";
import { getRollout } from "./rollout-progress";
import { publishRollout } from "./software-live";

// Root's firmware rollouts as a domain's admin sees them (ADR 031): offered to the domain, each
// accepted (now, or inside the domain's own window) or declined by its admin, or accepted by the
// domain's setting when it started. The driver sends the domain's routers only once accepted.

const windowOf = (start: number | null, end: number | null) =>
  start === null || end === null ? null : { start, end };

function toOffer(row: OfferRow, counts: ReadonlyArray<{ rollout_id: string; state: string; count: number }>) {
  const mine = counts.filter((count) => count.rollout_id === row.rollout_id);
  const offer: RolloutOffer = {
    _id: row.rollout_id,
    rule_name: row.rule_name ?? row.version,
    version: row.version,
    state: row.state as RolloutOfferState,
    auto: row.auto,
    window: windowOf(row.window_start, row.window_end),
    rollout_window: windowOf(row.rollout_window_start, row.rollout_window_end),
    rollout_status: row.rollout_status as RolloutStatus,
    routers: mine.reduce((sum, count) => sum + count.count, 0),
    succeeded: mine.find((count) => count.state === "succeeded")?.count ?? 0,
    create_time: row.create_time.toISOString(),
    decide_time: row.decide_time?.toISOString() ?? null,
  };
  return offer;
}

/** POST /api/rollout-offers: the rollouts offered to the admin's domain, newest first. */
export async function listRolloutOffers(ctx: AppContext, session: SessionContext): Promise<RolloutOffer[]> {
  const domainId = requireDeviceDomain(session);
  const repo = rolloutOffersRepo(ctx.db);
  const rows = await repo.listOffers(domainId);
  const counts = await repo.countDomainTargets(
    domainId,
    rows.map((row) => row.rollout_id),
  );
  return rows.map((row) => toOffer(row, counts));
}

/**
 * POST /api/rollout/{id}/accept and /decline: the domain's answer. Accepting lifts the 'offer' hold
 * from the domain's waiting routers (inside the window given, if any: it may be changed while the
 * rollout runs); declining skips them, and is final. Either queues an advance in the same
 * transaction, so the driver acts on it at once. A rollout over, or not offered to the domain, is
 * refused.
 */
export async function decideRolloutOffer(
  ctx: AppContext,
  session: SessionContext,
  rolloutId: string,
  answer: { accept: true; request: RolloutAcceptRequest } | { accept: false },
): Promise<RolloutOffer[]> {
  const domainId = requireDeviceDomain(session);
  await ctx.jobs.transaction(async (trx) => {
    // The rollout first, as the driver's advance locks it: the two never wait on each other.
    const rollout = await rolloutRepo(trx).lockRollout(rolloutId);
    const offers = rolloutOffersRepo(trx);
    const offer = rollout && (await offers.lockOffer(domainId, rolloutId));
    if (!rollout || !offer) throw new AppError("TASK_NOT_FOUND", "No such rollout offered to the domain");
    if (rollout.status === "completed" || rollout.status === "cancelled")
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The rollout is over");
    if (offer.state === "declined")
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "The domain declined this rollout");
    const now = ctx.now();
    const window = answer.accept ? answer.request.window : null;
    await offers.decideOffer(domainId, rolloutId, {
      state: answer.accept ? "accepted" : "declined",
      window_start: window?.start ?? null,
      window_end: window?.end ?? null,
      decided_by: session.user.id,
      decide_time: now,
    });
    if (answer.accept) await offers.releaseDomainTargets(domainId, rolloutId, now);
    else await offers.skipDomainTargets(domainId, rolloutId, now);
    // A paused rollout acts on the answer when it resumes.
    if (rollout.status === "running") await queueAdvance(ctx, trx, rollout, 0);
  });
  // Root's card shows the domain's answer at once (best-effort, as every push: ADR 021).
  await publishRollout(ctx, await getRollout(ctx, rolloutId));
  return listRolloutOffers(ctx, session);
}
