import { z } from "zod";
import { RolloutOptionsSchema } from "./rollout";

// A started rollout (issue 16, ADR 021): the body that starts one and the progress it reports.

const MinuteOfDay = z
  .int()
  .min(0)
  .max(24 * 60 - 1);

/**
 * A maintenance window: minutes of the day (start > end wraps midnight), read in each router's
 * domain's time zone. A rollout's, and a domain's own for the rollouts it accepts (ADR 031).
 */
export const RolloutWindowSchema = z
  .object({ start: MinuteOfDay, end: MinuteOfDay })
  .refine((window) => window.start !== window.end, "the window's start and end must differ");
export type RolloutWindow = z.infer<typeof RolloutWindowSchema>;

/** The body of POST /api/software/{id}/rollout: the dry run's options and an optional window. */
export const RolloutStartRequestSchema = RolloutOptionsSchema.extend({
  /**
   * Commands are sent only between these minutes of the day (start > end wraps midnight), read in
   * each router's domain's time zone: a router is sent only inside its own domain's window.
   */
  window: RolloutWindowSchema.nullable().default(null),
});
export type RolloutStartRequest = z.output<typeof RolloutStartRequestSchema>;

export const ROLLOUT_STATUSES = ["running", "paused", "cancelled", "completed"] as const;
export type RolloutStatus = (typeof ROLLOUT_STATUSES)[number];

export const ROLLOUT_TARGET_STATES = ["waiting", "sent", "succeeded", "failed", "skipped"] as const;
export type RolloutTargetState = (typeof ROLLOUT_TARGET_STATES)[number];

const StateCountsSchema = z.object({
  waiting: z.int(),
  sent: z.int(),
  succeeded: z.int(),
  failed: z.int(),
  skipped: z.int(),
});

/**
 * Why a waiting router is held (not sent yet): its domain has not accepted the rollout (ADR 031),
 * outside its domain's window, or on a weak link.
 */
export const ROLLOUT_HOLDS = ["offer", "window", "cellEdge", "backupSim", "roaming"] as const;
export type RolloutHold = (typeof ROLLOUT_HOLDS)[number];

/** A domain's answer to a rollout offered to it (ADR 031). */
export const ROLLOUT_OFFER_STATES = ["offered", "accepted", "declined"] as const;
export type RolloutOfferState = (typeof ROLLOUT_OFFER_STATES)[number];

/** One domain of a rollout: its answer, the window it chose, and where its routers are. */
export const RolloutDomainProgressSchema = StateCountsSchema.extend({
  domain_id: z.string(),
  name: z.string(),
  state: z.enum(ROLLOUT_OFFER_STATES),
  /** Whether the domain's setting accepted it, not a person. */
  auto: z.boolean(),
  window: RolloutWindowSchema.nullable(),
});
export type RolloutDomainProgress = z.infer<typeof RolloutDomainProgressSchema>;

/** A rollout and where each of its stages is. */
export const RolloutProgressSchema = z.object({
  _id: z.string(),
  rule_id: z.string(),
  version: z.string(),
  status: z.enum(ROLLOUT_STATUSES),
  stage: z.int(),
  pause_reason: z.string().nullable(),
  total: z.int(),
  options: RolloutStartRequestSchema,
  stages: z.array(StateCountsSchema),
  /**
   * The index of the stage of routers that were on a weak link at the start, planned after the
   * waves to wait for a better link; null when none was (or the rollout predates migration 0030).
   */
  link_stage: z.int().nullable(),
  /**
   * Waiting routers held when the driver last tried to send them, by reason: outside their domain's
   * window, or on a weak link (cell edge, backup SIM, roaming) as their latest reports say.
   */
  held: z.object({
    offer: z.int(),
    window: z.int(),
    cellEdge: z.int(),
    backupSim: z.int(),
    roaming: z.int(),
  }),
  /** Every domain the rollout was offered to, with its answer and its routers' counts (ADR 031). */
  domains: z.array(RolloutDomainProgressSchema),
  failures: z.array(
    z.object({
      device_id: z.string(),
      domain_id: z.string(),
      stage: z.int(),
      reason: z.string().nullable(),
    }),
  ),
  create_time: z.string(),
  update_time: z.string(),
});
export type RolloutProgress = z.infer<typeof RolloutProgressSchema>;

/** The answer of POST /api/software/{id}/rollouts: the rule's newest rollout, null when none. */
export const LatestRolloutSchema = z.object({ rollout: RolloutProgressSchema.nullable() });
export type LatestRollout = z.infer<typeof LatestRolloutSchema>;

/** Whether `minute` of the day is inside a window (start > end wraps midnight); no window is always. */
export function isInsideWindow(window: { start: number; end: number } | null, minute: number): boolean {
  if (!window) return true;
  if (window.start <= window.end) return minute >= window.start && minute < window.end;
  return minute >= window.start || minute < window.end;
}

/** A rollout offered to the admin's domain, as the domain's list shows it (ADR 031). */
export const RolloutOfferSchema = z.object({
  /** The rollout's id. */
  _id: z.string(),
  rule_name: z.string(),
  version: z.string(),
  state: z.enum(ROLLOUT_OFFER_STATES),
  auto: z.boolean(),
  /** The window the domain chose when it accepted; null: any time. */
  window: RolloutWindowSchema.nullable(),
  /** The rollout's own window, set by root (both must be open for a router to be sent). */
  rollout_window: RolloutWindowSchema.nullable(),
  rollout_status: z.enum(ROLLOUT_STATUSES),
  /** How many of the domain's routers the rollout takes, and how many are updated. */
  routers: z.int(),
  succeeded: z.int(),
  create_time: z.string(),
  decide_time: z.string().nullable(),
});
export type RolloutOffer = z.infer<typeof RolloutOfferSchema>;

/** Answer of POST /api/rollout-offers: the domain's offers, newest first. */
export const RolloutOffersAnswerSchema = z.object({ items: z.array(RolloutOfferSchema) });

/** Body of POST /api/rollout/{id}/accept: now (null), or only inside the domain's own window. */
export const RolloutAcceptRequestSchema = z.object({
  window: RolloutWindowSchema.nullable().default(null),
});
export type RolloutAcceptRequest = z.output<typeof RolloutAcceptRequestSchema>;
