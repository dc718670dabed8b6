import { z } from "zod";
import { signalQualityFromCsq } from "./status";

// Staged firmware rollouts (issue 16): the rules that plan stages and gate them, shared by the
// server's driver, its dry run and the web's preview. Pure: no clock, no database.

/** How a rollout is cut and bounded. */
export const RolloutOptionsSchema = z.object({
  /** The canary: a number of routers, or a percentage of those to update. */
  canary: z.union([
    z.object({ count: z.int().min(1).max(100_000) }),
    z.object({ percent: z.number().gt(0).max(100) }),
  ]),
  /** How many routers each later wave takes (the last takes the rest). */
  waveSize: z.int().min(1).max(100_000),
  /** Share of a stage's routers that must succeed before the next stage starts (0..1). */
  successRate: z.number().min(0).max(1).default(0.95),
  /** Failures allowed over the whole rollout, as a share of its routers (0..1); one more pauses it. */
  errorBudget: z.number().min(0).max(1).default(0.05),
  /** Routers updating at once. */
  concurrency: z.int().min(1).max(10_000).default(50),
  /** Minutes a router has to come back on the new version before it counts as failed. */
  deadlineMinutes: z
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  /**
   * The domains root offers the rollout to (ADR 031): only their routers are planned, and each is
   * sent only once its domain accepted. Null: every domain with a router of the rule's models.
   */
  domains: z.array(z.string().min(1).max(64)).min(1).max(10_000).nullable().default(null),
});
export type RolloutOptions = z.output<typeof RolloutOptionsSchema>;

/** What the planner knows of a router. */
export interface RolloutCandidate {
  id: string;
  model: string | null;
  firmware: string | null;
  /** CSQ of its primary modem; null when not reported. */
  csq: number | null;
  /** Online on a modem that is not the primary one, or on a SIM slot other than the first. */
  isOnBackupSim: boolean;
  /** Known roaming; false when the router does not say. */
  isRoaming: boolean;
  /** Connected to the console now (ADR 032): the canary is taken from these first. */
  isConnected?: boolean;
}

/** Why a router is left out of a rollout. */
export const ROLLOUT_SKIP_REASONS = ["otherModel", "noVersion", "alreadyOnVersion"] as const;
export type RolloutSkipReason = (typeof ROLLOUT_SKIP_REASONS)[number];

/** Why a planned router waits for a better link (it is sent once its link is good). */
export const LINK_WAIT_REASONS = ["cellEdge", "backupSim", "roaming"] as const;
export type RolloutLinkReason = (typeof LINK_WAIT_REASONS)[number];

/** Why the router should wait for a better link now; null when its link is good enough. */
export function linkWaitReason(candidate: RolloutCandidate): RolloutLinkReason | null {
  if (signalQualityFromCsq(candidate.csq) === "cellEdge") return "cellEdge";
  if (candidate.isOnBackupSim) return "backupSim";
  if (candidate.isRoaming) return "roaming";
  return null;
}

/**
 * The routers each stage takes (stage 0 the canary), those on a weak link now (the plan's last
 * stage, after the waves: each is sent once its link is good), and those skipped with their reasons.
 */
export interface RolloutPlan {
  stages: string[][];
  waiting: Array<{ id: string; reason: RolloutLinkReason }>;
  skipped: Array<{ id: string; reason: RolloutSkipReason }>;
}

/**
 * Plans a rollout of `version` to routers of `models`: routers of other models, with no reported
 * version or already on it are skipped; those with a poor link wait (ADR 021: a stage of their own
 * after the waves, so they neither hold up the canary nor are judged in it). The rest, ordered by
 * id so a re-plan is stable, go to the canary (a count, or a percentage rounded up), taken from
 * those connected now first (an offline canary would hold the whole rollout until it came back),
 * and then to waves of `waveSize`.
 */
export function planRollout(
  candidates: readonly RolloutCandidate[],
  target: { models: readonly string[]; version: string },
  options: Pick<RolloutOptions, "canary" | "waveSize">,
): RolloutPlan {
  const skipped: RolloutPlan["skipped"] = [];
  const waiting: RolloutPlan["waiting"] = [];
  const ready: string[] = [];
  const connected = new Set<string>();
  const models = new Set(target.models);
  for (const candidate of [...candidates].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    let reason: RolloutSkipReason | null = null;
    if (candidate.model === null || !models.has(candidate.model)) reason = "otherModel";
    else if (candidate.firmware === null) reason = "noVersion";
    else if (candidate.firmware === target.version) reason = "alreadyOnVersion";
    const link = reason ? null : linkWaitReason(candidate);
    if (reason) skipped.push({ id: candidate.id, reason });
    else if (link) waiting.push({ id: candidate.id, reason: link });
    else {
      ready.push(candidate.id);
      if (candidate.isConnected === true) connected.add(candidate.id);
    }
  }
  const canarySize =
    "count" in options.canary
      ? Math.min(options.canary.count, ready.length)
      : Math.min(ready.length, Math.ceil((ready.length * options.canary.percent) / 100));
  const byCanary = [...ready.filter((id) => connected.has(id)), ...ready.filter((id) => !connected.has(id))];
  const canary = byCanary.slice(0, canarySize);
  const inCanary = new Set(canary);
  const rest = ready.filter((id) => !inCanary.has(id));
  const stages: string[][] = [];
  if (ready.length > 0) stages.push(canary);
  for (let start = 0; start < rest.length; start += options.waveSize)
    stages.push(rest.slice(start, start + options.waveSize));
  return { stages, waiting, skipped };
}

/** Where a stage's routers are. */
export interface StageCounts {
  total: number;
  succeeded: number;
  failed: number;
}

/** How many routers of a rollout may fail before it pauses. */
export function errorBudgetCount(total: number, errorBudget: number): number {
  // The epsilon keeps 200 × 0.05 at 10 where floating point gives 9.999….
  return Math.floor(total * errorBudget + 1e-9);
}

/** What the driver does next with a running rollout. */
export type RolloutGate = "wait" | "nextStage" | "done" | "pause";

/**
 * The gate after a count: pause when failures over the whole rollout pass the error budget
 * (more than floor(budget × routers) failed, so 200 routers at 5% allow 10); move on when the current stage reached its success rate and none of
 * it is still under way; done when that was the last stage; otherwise wait. A stage whose routers
 * all finished without reaching the rate pauses too: going on would spread a bad update.
 */
export function rolloutGate(
  stage: StageCounts,
  overall: { total: number; failed: number },
  isLastStage: boolean,
  options: Pick<RolloutOptions, "successRate" | "errorBudget">,
): RolloutGate {
  if (overall.failed > errorBudgetCount(overall.total, options.errorBudget)) return "pause";
  const finished = stage.succeeded + stage.failed;
  const hasReachedRate = stage.total === 0 || stage.succeeded / stage.total >= options.successRate;
  if (finished < stage.total) return "wait";
  if (!hasReachedRate) return "pause";
  return isLastStage ? "done" : "nextStage";
}

/**
 * Whether the driver may send one more router now, asked before each send: under the concurrency
 * cap; never past the error budget (the gate pauses); and once the failures counted reach the
 * budget, so that the next one pauses, only while no router is under way. A rollout at its budget
 * thus pauses at one failure past it plus whatever was already in flight when it got there, not a
 * whole concurrency cap sent after. No failure yet does not reach a budget of 0 (ADR 021).
 */
export function mayRolloutSend(
  counts: { total: number; failed: number; inFlight: number },
  options: Pick<RolloutOptions, "concurrency" | "errorBudget">,
): boolean {
  if (counts.inFlight >= options.concurrency) return false;
  const allowed = errorBudgetCount(counts.total, options.errorBudget);
  if (counts.failed > allowed) return false;
  const isAtBudget = counts.failed > 0 && counts.failed >= allowed;
  return !isAtBudget || counts.inFlight === 0;
}

/** The body of POST /api/software/{id}/rollout/dry-run. */
export const RolloutDryRunRequestSchema = RolloutOptionsSchema;

/** A router as a dry run lists it. */
export const RolloutRouterSchema = z.object({
  _id: z.string(),
  ident: z.string(),
  domain_id: z.string(),
  /** The router's domain by name: a rollout spans customers, and each router says whose it is. */
  domain_name: z.string(),
  model: z.string().nullable(),
  firmware: z.string().nullable(),
});

/**
 * What a rollout would do now: its version, the routers of each stage (0: the canary), those that
 * will wait for a better link (a last stage after the waves, each sent once its link is good) and
 * why, and those skipped and why.
 */
export const RolloutDryRunSchema = z.object({
  version: z.string(),
  stages: z.array(z.array(RolloutRouterSchema)),
  waiting: z.array(RolloutRouterSchema.extend({ reason: z.enum(LINK_WAIT_REASONS) })),
  skipped: z.array(RolloutRouterSchema.extend({ reason: z.enum(ROLLOUT_SKIP_REASONS) })),
  /**
   * The domains the rollout would be offered to (ADR 031), by name: how many of their routers it
   * would update (stages and waiting), and whether the domain accepts rollouts by itself; a domain
   * that does not is sent nothing until its admin accepts.
   */
  domains: z.array(
    z.object({ _id: z.string(), name: z.string(), routers: z.int(), auto_accept: z.boolean() }),
  ),
});
export type RolloutDryRun = z.infer<typeof RolloutDryRunSchema>;

/** Whether a modems report shows the router roaming: the modem carrying its data (the online primary, else the first online) says `roaming`. */
export function isRoaming(
  modems: ReadonlyArray<{ state: number; primary: boolean; roaming?: boolean }>,
): boolean {
  const online = modems.filter((modem) => modem.state === 1);
  const carrier = online.find((modem) => modem.primary) ?? online[0];
  return carrier?.roaming === true;
}

/** Whether a modems report shows the router on a backup link: online only through a non-primary modem, or on a SIM slot past the first. */
export function isOnBackupSim(
  modems: ReadonlyArray<{ state: number; primary: boolean; sim: number }>,
): boolean {
  const online = modems.filter((modem) => modem.state === 1);
  if (online.length === 0) return false;
  const primary = online.find((modem) => modem.primary);
  return primary ? primary.sim !== 1 : true;
}
