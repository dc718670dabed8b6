import { z } from "zod";
import { CopiesSchema } from "./validators/numbers";
import { RequiredTextSchema, TagSchema } from "./validators/textSchemas";

/** The classes of schedule rule (spec section 3): what a firing asks the routers for. */
export const SCHEDULE_CLASSES = ["backup", "journal"] as const;
/** A schedule rule's class, the `{class}` of /{class}/task/{id} and of the crontab calls. */
export type ScheduleClass = (typeof SCHEDULE_CLASSES)[number];

/** Whether a path segment names a schedule class. */
export function isScheduleClass(value: string): value is ScheduleClass {
  return (SCHEDULE_CLASSES as readonly string[]).includes(value);
}

/** Weeks of the month a weekly rule may pick: days 1–7, 8–14, 15–21, 22–28, and the month's last seven. */
export const SCHEDULE_WEEKS = [1, 2, 3, 4, "last"] as const;
/** One week of the month. */
export type ScheduleWeek = (typeof SCHEDULE_WEEKS)[number];
/** Days of the week as ISO numbers: 1 Monday … 7 Sunday. */
export const SCHEDULE_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** A time of day as HH:MM, 00:00 to 23:59. */
export const SCHEDULE_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** A time of day HH:MM; answers the key of its message or null. */
export function validateScheduleTime(value: string): "required" | "timeInvalid" | null {
  const text = value.trim();
  if (text === "") return "required";
  return SCHEDULE_TIME_PATTERN.test(text) ? null : "timeInvalid";
}

/** An IANA time zone the runtime knows (browser and server alike); answers the key of its message or null. */
export function validateTimeZone(value: string): "required" | "timeZoneInvalid" | null {
  if (value.trim() === "") return "required";
  try {
    new Intl.DateTimeFormat("en", { timeZone: value });
    return null;
  } catch {
    return "timeZoneInvalid";
  }
}

const ScheduleTimeSchema = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const key = validateScheduleTime(value);
    if (key !== null) ctx.addIssue({ code: "custom", message: key, input: value });
  });

/** An IANA time zone name (the domain's, spec section 3), with the §5 key of its message. */
export const TimeZoneSchema = z.string().superRefine((value, ctx) => {
  const key = validateTimeZone(value);
  if (key !== null) ctx.addIssue({ code: "custom", message: key, input: value });
});

/** When a rule fires (spec section 3 `regular`): every day, or on some days of some weeks of the month. */
export const ScheduleRegularSchema = z.object({
  basic: z.enum(["daily", "weekly"]),
  options: z.object({
    /** Weekly only; empty means every week. */
    weeks: z
      .array(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal("last")]))
      .max(5),
    /** Weekly only: ISO days, 1 Monday … 7 Sunday; at least one. */
    days: z.array(z.number().int().min(1).max(7)).max(7),
  }),
  time: ScheduleTimeSchema,
});
/** When a rule fires. */
export type ScheduleRegular = z.infer<typeof ScheduleRegularSchema>;

/** What an admin writes of a rule (the class comes from the path). */
export const ScheduleRuleInputSchema = z
  .object({
    name: RequiredTextSchema,
    active: z.boolean(),
    regular: ScheduleRegularSchema,
    active_for: z.enum(["all", "group"]),
    search: z.object({ filterTags: z.array(TagSchema).max(50) }),
    copies: CopiesSchema,
  })
  .superRefine((rule, ctx) => {
    if (rule.regular.basic === "weekly" && rule.regular.options.days.length === 0)
      ctx.addIssue({
        code: "custom",
        message: "daysRequired",
        path: ["regular", "options", "days"],
        input: [],
      });
    if (rule.active_for === "group" && rule.search.filterTags.length === 0)
      ctx.addIssue({ code: "custom", message: "tagsRequired", path: ["search", "filterTags"], input: [] });
  });
/** A rule as written by an admin. */
export type ScheduleRuleInput = z.infer<typeof ScheduleRuleInputSchema>;

/** A stored schedule rule (spec section 3 "Schedule rule (crontab)"), with its next and last firing. */
export const ScheduleRuleSchema = z.object({
  _id: z.string(),
  type: z.enum(SCHEDULE_CLASSES),
  name: z.string(),
  active: z.boolean(),
  regular: ScheduleRegularSchema,
  /** The domain's time zone the time is read in (ADR 020): not the rule's own, so read-only here. */
  time_zone: z.string(),
  active_for: z.enum(["all", "group"]),
  search: z.object({ filterTags: z.array(z.string()) }),
  copies: z.number().int(),
  /** The next occurrence (ms), null while inactive. */
  next_run: z.number().nullable(),
  /** The last firing (ms), null before the first. */
  last_run: z.number().nullable(),
  /** The command the last firing created, null before the first. */
  last_command_id: z.string().nullable(),
  create_time: z.number(),
});
/** A stored schedule rule. */
export type ScheduleRule = z.infer<typeof ScheduleRuleSchema>;

/** Answer of POST /api/crontab/all: every backup and journal rule of the domain. */
export const ScheduleRulesAnswerSchema = z.object({ items: z.array(ScheduleRuleSchema) });
/** Answer of the calls on one rule. */
export const ScheduleRuleAnswerSchema = z.object({ item: ScheduleRuleSchema });
/** Body of PATCH /api/crontab/{class}/{id}. */
export const ScheduleRuleActiveRequestSchema = z.object({ active: z.boolean() });

/**
 * A new rule's starting values in the form: daily at 03:00 (issue 27: it opened as "weekly on
 * Monday"); Monday stays chosen for a person who switches it to weekly.
 */
export function emptyScheduleRuleInput(): ScheduleRuleInput {
  return {
    name: "",
    active: true,
    regular: { basic: "daily", options: { weeks: [], days: [1] }, time: "03:00" },
    active_for: "all",
    search: { filterTags: [] },
    copies: 10,
  };
}
