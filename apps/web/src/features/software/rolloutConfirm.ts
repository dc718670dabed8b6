import type { RolloutDryRun } from "@cellfleet/contract";

/** What starting a rollout would take now, as its confirmation names it (issue 27). */
export interface RolloutFigures {
  /** Routers the rollout would update: every stage's, and those waiting for a better link. */
  routers: number;
  /** How many domains those routers belong to: a root rollout can reach several customers. */
  domains: number;
  /** Routers of the first stage (the canary). */
  first: number;
  /** Of those domains, the ones whose admin is asked first: nothing reaches them before (ADR 031). */
  asked: number;
}

/** The dry run's figures for the start's confirmation. */
export function rolloutFigures(plan: RolloutDryRun): RolloutFigures {
  const routers = [...plan.stages.flat(), ...plan.waiting];
  return {
    routers: routers.length,
    domains: new Set(routers.map((router) => router.domain_id)).size,
    first: plan.stages[0]?.length ?? 0,
    asked: plan.domains.filter((domain) => !domain.auto_accept).length,
  };
}
