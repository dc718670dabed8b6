import { z } from "zod";
import { SoftwareRuleSchema } from "./firmware";
import { type RolloutProgress, RolloutProgressSchema } from "./rollout-driver";

// The `software` message of the realtime socket (issue 16, ADR 021): software rules and rollouts
// changed. Root's screens (software.view): it goes to the superusers' topic only.

/** What a `software` message carries: rules changed (whole), rules deleted (ids), rollouts' progress (whole). */
export const SoftwareSocketContentSchema = z.object({
  rules: z.array(SoftwareRuleSchema),
  deleted: z.array(z.string()),
  rollouts: z.array(RolloutProgressSchema),
});
export type SoftwareSocketContent = z.infer<typeof SoftwareSocketContentSchema>;

/** A `software` socket message as the web reads it. */
export const SoftwareSocketMessageSchema = z.object({
  type: z.literal("software"),
  content: SoftwareSocketContentSchema,
});

/**
 * Which of two reads of a rule's newest rollout to keep: pushes of one rollout may arrive out of
 * order (the driver's job and a control route each push after their commit), so an older snapshot
 * never replaces a newer one; a later rollout of the rule replaces an earlier one.
 */
export function newerRollout(current: RolloutProgress | null, incoming: RolloutProgress): RolloutProgress {
  if (current === null) return incoming;
  if (current._id !== incoming._id) return incoming.create_time >= current.create_time ? incoming : current;
  return incoming.update_time >= current.update_time ? incoming : current;
}
