import {
  DEFAULT_DOMAIN_SETTINGS,
  FIRMWARE_STATUS,
  firmwareVersionFromFilename,
  planRollout,
  type RolloutCandidate,
  type RolloutDryRun,
  type RolloutOptions,
} from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { firmwareRepo } from "./firmware.repo";
import { linkOf } from "./rollout-holds";

// Staged rollouts of a ready software rule (issue 16). This part: the dry run, which lists the
// routers each stage would take now, those that will wait for a better link and those skipped,
// with their reasons, each with its domain, and the domains it would be offered to (ADR 031).

type CandidateRow = Awaited<
  ReturnType<ReturnType<typeof firmwareRepo>["findRolloutCandidatesAcrossDomains"]>
>[number];

function toCandidate(row: CandidateRow): RolloutCandidate {
  return {
    id: row.id,
    model: row.model,
    firmware: row.firmware,
    ...linkOf(row),
    isConnected: row.connected === true,
  };
}

/**
 * POST /api/software/{id}/rollout/dry-run: the plan over the routers of the rule's models in the
 * chosen domains (every domain when none is chosen).
 */
export async function dryRunRollout(
  ctx: AppContext,
  ruleId: string,
  options: RolloutOptions,
): Promise<RolloutDryRun> {
  const repo = firmwareRepo(ctx.db);
  const rule = await repo.findRule(ruleId);
  if (!rule) throw new AppError("RULE_NOT_FOUND", "No such software rule");
  if (rule.status !== FIRMWARE_STATUS.ready || !rule.filename)
    throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Only a ready rule (its file fetched) rolls out");
  const version = firmwareVersionFromFilename(rule.filename);
  const rows = await repo.findRolloutCandidatesAcrossDomains(rule.models, options.domains ?? null);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const plan = planRollout(rows.map(toCandidate), { models: rule.models, version }, options);
  const router = (id: string) => {
    const row = byId.get(id) as CandidateRow;
    return {
      _id: row.id,
      ident: row.ident,
      domain_id: row.domain_id,
      domain_name: row.domain_name,
      model: row.model,
      firmware: row.firmware,
    };
  };
  // The domains whose routers the rollout would update, in the order of their names.
  const domains = new Map<string, RolloutDryRun["domains"][number]>();
  for (const id of [...plan.stages.flat(), ...plan.waiting.map((wait) => wait.id)]) {
    const row = byId.get(id) as CandidateRow;
    const known = domains.get(row.domain_id);
    if (known) known.routers += 1;
    else
      domains.set(row.domain_id, {
        _id: row.domain_id,
        name: row.domain_name,
        routers: 1,
        auto_accept: (row.domain_settings.rollouts ?? DEFAULT_DOMAIN_SETTINGS.rollouts).auto_accept,
      });
  }
  return {
    version,
    stages: plan.stages.map((stage) => stage.map(router)),
    waiting: plan.waiting.map((wait) => ({ ...router(wait.id), reason: wait.reason })),
    skipped: plan.skipped.map((skip) => ({ ...router(skip.id), reason: skip.reason })),
    domains: [...domains.values()].sort((a, b) => a.name.localeCompare(b.name) || a._id.localeCompare(b._id)),
  };
}
