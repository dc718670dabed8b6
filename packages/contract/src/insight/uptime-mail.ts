import { z } from "zod";
import { LocaleSchema } from "../constantSchemas";
import { EmailSchema } from "../validators/contact";
import { RequiredTextSchema, TagSchema } from "../validators/textSchemas";

// The monthly mail of the uptime report (issue 31, ADR 044): a schedule rule of its own kind that,
// on the 1st of each month of the domain's time zone, mails last month's PDF to its recipients.

/** The hour of the 1st (domain time zone) the monthly report is mailed at. */
export const UPTIME_MAIL_HOUR = 6;
/** How many addresses one rule mails. */
export const UPTIME_MAIL_RECIPIENTS_MAX = 20;

/** What an admin writes of a monthly report rule. */
export const UptimeMailRuleInputSchema = z
  .object({
    name: RequiredTextSchema,
    recipients: z.array(EmailSchema).min(1).max(UPTIME_MAIL_RECIPIENTS_MAX),
    scope: z.enum(["domain", "tag"]),
    /** The tag of a `tag` rule. */
    tag: TagSchema.optional(),
    /** The language the PDF and the mail are written in. */
    language: LocaleSchema,
  })
  .superRefine((rule, ctx) => {
    if (rule.scope === "tag" && !rule.tag)
      ctx.addIssue({ code: "custom", message: "tagsRequired", path: ["tag"], input: rule.tag });
  });
/** A monthly report rule as written. */
export type UptimeMailRuleInput = z.input<typeof UptimeMailRuleInputSchema>;

/** A stored monthly report rule with its next and last mailing. */
export const UptimeMailRuleSchema = z.object({
  _id: z.string(),
  name: z.string(),
  recipients: z.array(z.string()),
  scope: z.enum(["domain", "tag"]),
  tag: z.string().nullable(),
  language: LocaleSchema,
  /** The next mailing (ms): 06:00 on the next 1st of the domain's zone. */
  next_run: z.number().nullable(),
  /** The last mailing (ms), null before the first. */
  last_run: z.number().nullable(),
  /** The month the last mailing reported, `YYYY-MM`. */
  last_month: z.string().nullable(),
  time_zone: z.string(),
  create_time: z.number(),
});
/** A stored monthly report rule. */
export type UptimeMailRule = z.infer<typeof UptimeMailRuleSchema>;

/** Answer of POST /api/uptime/mail-rules. */
export const UptimeMailRulesAnswerSchema = z.object({ items: z.array(UptimeMailRuleSchema) });
/** Answer of POST /api/uptime/mail-rule. */
export const UptimeMailRuleAnswerSchema = z.object({ item: UptimeMailRuleSchema });
