import type {
  RolloutOfferState,
  RolloutProgress,
  RolloutStartRequest,
  RolloutStatus,
} from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { firmwareRepo } from "./firmware.repo";
import { rolloutRepo } from "./rollout.repo";
import { rolloutOffersRepo } from "./rollout-offers.repo";
import { heldOf } from "./rollout-send";

// A rollout's progress (ADR 021), as the HTTP answers and the socket's pushes carry it: counts per
// stage and per domain with its answer to the offer (ADR 031), holds and failures.

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
  const offers = rolloutOffersRepo(ctx.db);
  const byDomain = await offers.countTargetsByDomainAcrossDomains(id);
  const domains = (await offers.listRolloutDomainsAcrossDomains(id)).map((offer) => {
    const counts = { waiting: 0, sent: 0, succeeded: 0, failed: 0, skipped: 0 };
    for (const row of byDomain)
      if (row.domain_id === offer.domain_id && row.state in counts)
        counts[row.state as keyof typeof counts] = row.count;
    return {
      domain_id: offer.domain_id,
      name: offer.name ?? offer.domain_id,
      state: offer.state as RolloutOfferState,
      auto: offer.auto,
      window:
        offer.window_start === null || offer.window_end === null
          ? null
          : { start: offer.window_start, end: offer.window_end },
      ...counts,
    };
  });
  return {
    _id: rollout.id,
    rule_id: rollout.rule_id,
    version: rollout.version,
    status: rollout.status as RolloutStatus,
    stage: rollout.stage,
    pause_reason: rollout.pause_reason,
    total: rollout.total,
    options: rollout.options as unknown as RolloutStartRequest,
    stages,
    link_stage: rollout.link_stage,
    held: heldOf(await repo.countHeldAcrossDomains(id)),
    domains,
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
