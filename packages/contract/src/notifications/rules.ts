import { z } from "zod";
import { EVENT_LEVELS } from "../lists";
import { RequiredTextSchema, TagSchema } from "../validators/textSchemas";
import { checkRuleMonitor, MONITORS, MonitorNameSchema, RuleMonitorSchema } from "./monitors";
import { TRANSPORT_TYPES } from "./transports";

// Notification rules (spec sections 2, 3 and 7): a monitor, the provider its messages go out
// through, filters by tags and event levels, and the tolerance that keeps flapping links quiet.

/** The longest tolerance: a day, in minutes. */
export const TOLERANCE_MINUTES_MAX = 1440;

/**
 * A rule's fields. A draft may be saved without a provider and stays inactive; a rule that is not
 * a draft needs one. check_delay and variables follow {@link checkRuleMonitor}.
 */
export const RuleFieldsSchema = z
  .object({
    name: RequiredTextSchema,
    active: z.boolean().default(true),
    draft: z.boolean().default(false),
    monitor: RuleMonitorSchema,
    transport_id: z.string().max(64).nullable().default(null),
    /** Only devices with at least one of these tags (empty: every device). */
    filter_tags: z.array(TagSchema).max(50).default([]),
    /** Only events of these levels (empty: every level); device_event rules. */
    filter_levels: z.array(z.enum(EVENT_LEVELS)).max(EVENT_LEVELS.length).default([]),
    /**
     * State monitors: how long a problem must last before it is sent. Occurrence monitors: the
     * window in which repeats are counted into one incident rather than sent again.
     */
    tolerance_minutes: z.number().int().min(0).max(TOLERANCE_MINUTES_MAX).default(0),
  })
  .superRefine((rule, ctx) => {
    for (const problem of checkRuleMonitor(rule.monitor)) {
      // A draft may still miss what is required; what it does hold must be right.
      if (rule.draft && problem.key === "required") continue;
      ctx.addIssue({ code: "custom", path: ["monitor", ...problem.field.split(".")], message: problem.key });
    }
    if (!rule.draft && rule.transport_id === null) {
      ctx.addIssue({ code: "custom", path: ["transport_id"], message: "required" });
    }
  });
/** Body of POST /api/notifications/rule/new and PUT /api/notifications/rule/{id}. */
export type RuleFields = z.input<typeof RuleFieldsSchema>;
/** Parsed rule fields. */
export type RuleFieldsParsed = z.output<typeof RuleFieldsSchema>;

/** Body of PATCH /api/notifications/rule/{id} (spec section 7): the active toggle that saves. */
export const RuleActiveSchema = z.object({ active: z.boolean() });
export type RuleActive = z.infer<typeof RuleActiveSchema>;

/** A rule as answers show it. `create_date` is ms since the epoch (spec section 3). */
export const RuleSchema = z.object({
  _id: z.string(),
  name: z.string(),
  active: z.boolean(),
  draft: z.boolean(),
  monitor: z.object({
    name: MonitorNameSchema,
    type: z.enum(["reactive", "timer"]),
    check_delay: z.number().nullable(),
    variables: z.record(z.string(), z.string()),
  }),
  transport: z.object({ _id: z.string(), name: z.string(), type: z.enum(TRANSPORT_TYPES) }).nullable(),
  filter_tags: z.array(z.string()),
  filter_levels: z.array(z.enum(EVENT_LEVELS)),
  tolerance_minutes: z.number().int(),
  /** Incidents of the rule open now (announced, not yet resolved). */
  open_incidents: z.number().int(),
  create_date: z.number(),
  update_time: z.number(),
});
/** A rule. */
export type Rule = z.infer<typeof RuleSchema>;

/** POST /api/notifications/rules (spec section 7): `search` over name, monitor and provider. */
export const RuleListRequestSchema = z.object({ search: z.string().trim().max(255).optional() });
export type RuleListRequest = z.infer<typeof RuleListRequestSchema>;

/**
 * Answer of POST /api/notifications/rules: the rules with the card's total and active counts
 * (of the whole list, before search). Empty without the notification plugin (spec section 6).
 */
export const RuleListAnswerSchema = z.object({
  items: z.array(RuleSchema),
  total: z.number().int(),
  active: z.number().int(),
});
export type RuleListAnswer = z.infer<typeof RuleListAnswerSchema>;

/** Whether the monitor of a rule is a timer (it then has a check_delay). */
export function isTimerMonitor(name: z.infer<typeof MonitorNameSchema>): boolean {
  return MONITORS[name].type === "timer";
}
