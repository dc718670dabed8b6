import { UPTIME_MAIL_HOUR } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { DateTime } from "luxon";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import type { NoPayload } from "../../platform/jobs/jobs";
import { findDomainTimeZone } from "../settings/settings.service";
import { renderUptimeDocument } from "./uptime.document";
import { monthWords, scopeWords } from "./uptime.pdf";
import { type ReportLanguage, reportTexts } from "./uptime.pdf-texts";
import { uptimeMailRepo } from "./uptime-mail.repo";

// The monthly uptime mail as durable jobs, the way the crontab's rules fire (ADR 020, ADR 044): each
// mailing is one job due at 06:00 on the 1st of the domain's zone, keyed by rule and occurrence. The
// firing locks the rule, fires only the occurrence the rule still waits for, and in one transaction
// moves the rule on, queues the next occurrence and a send job per recipient: so a month is mailed
// once across nodes, retries and restarts. The send job renders the PDF and mails it; a refused or
// unreachable SMTP server is retried with backoff.

/** The job kind of one mailing occurrence of a rule. */
export const UPTIME_MAIL_FIRE_JOB = "uptime.mailFire";
/** The job kind that renders the PDF and mails it to one recipient. */
export const UPTIME_MAIL_SEND_JOB = "uptime.mailSend";
/** The periodic look for due rules without a live job. */
export const UPTIME_MAIL_CATCH_UP_JOB = "uptime.mailCatchUp";
const CATCH_UP_INTERVAL_MS = 60_000;

interface FirePayload {
  ruleId: string;
  /** The occurrence, ms. */
  occurrence: number;
}

interface SendPayload {
  ruleId: string;
  month: string;
  to: string;
  scope: "domain" | "tag";
  tag: string | null;
  language: ReportLanguage;
}

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "uptime.mailFire": FirePayload;
    "uptime.mailSend": SendPayload;
    "uptime.mailCatchUp": NoPayload;
  }
}

/** The first mailing strictly after `after`: 06:00 on a 1st of the zone. */
export function nextMailing(zone: string, after: Date): Date {
  const month = DateTime.fromJSDate(after, { zone }).startOf("month");
  const here = month.set({ hour: UPTIME_MAIL_HOUR });
  if (here.toMillis() > after.getTime()) return here.toJSDate();
  return month.plus({ months: 1 }).set({ hour: UPTIME_MAIL_HOUR }).toJSDate();
}

/** The month a mailing reports: the one before the occurrence's, in the zone. */
export function reportedMonth(zone: string, occurrence: Date): string {
  return DateTime.fromJSDate(occurrence, { zone }).startOf("month").minus({ months: 1 }).toFormat("yyyy-MM");
}

/** Queues the firing of a rule's occurrence, in the caller's transaction (a second one is a no-op). */
export async function enqueueMailFiring(
  ctx: Pick<AppContext, "jobs">,
  trx: Kysely<DB>,
  domainId: string,
  ruleId: string,
  occurrence: Date,
): Promise<void> {
  await ctx.jobs.enqueue(trx, {
    kind: UPTIME_MAIL_FIRE_JOB,
    domainId,
    payload: { ruleId, occurrence: occurrence.getTime() },
    runAt: occurrence,
    dedupeKey: `${UPTIME_MAIL_FIRE_JOB}:${ruleId}:${occurrence.getTime()}`,
  });
}

/** Fires a rule's occurrence if the rule still waits for it; answers the month mailed, or null. */
export async function fireMailing(
  ctx: AppContext,
  domainId: string,
  ruleId: string,
  occurrence: Date,
): Promise<string | null> {
  return ctx.jobs.transaction(async (trx) => {
    const repo = uptimeMailRepo(trx);
    const rule = await repo.lockRule(domainId, ruleId);
    if (!rule?.active || rule.next_run?.getTime() !== occurrence.getTime()) return null;
    const zone = await findDomainTimeZone({ db: trx }, domainId);
    const month = reportedMonth(zone, occurrence);
    // A firing late by a restart mails once, then goes on from now, not through every missed month.
    const now = ctx.now();
    const nextRun = nextMailing(zone, now.getTime() > occurrence.getTime() ? now : occurrence);
    await repo.updateRule(domainId, ruleId, { next_run: nextRun, last_run: occurrence, last_month: month });
    await enqueueMailFiring(ctx, trx, domainId, ruleId, nextRun);
    for (const to of rule.recipients) {
      await ctx.jobs.enqueue(trx, {
        kind: UPTIME_MAIL_SEND_JOB,
        domainId,
        payload: { ruleId, month, to, scope: rule.scope, tag: rule.tag, language: rule.language },
        dedupeKey: `${UPTIME_MAIL_SEND_JOB}:${ruleId}:${month}:${to}`,
      });
    }
    return month;
  });
}

/** Renders the month's PDF and mails it to one recipient. */
async function sendReport(ctx: AppContext, domainId: string, payload: SendPayload): Promise<void> {
  const request = { month: payload.month, scope: payload.scope, tag: payload.tag ?? undefined };
  let document: Awaited<ReturnType<typeof renderUptimeDocument>>;
  try {
    document = await renderUptimeDocument(ctx, domainId, request, payload.language);
  } catch (error) {
    // The tag is carried by no router any more: nothing to report, and retrying will not change it.
    if (error instanceof AppError && error.code === "BAD_REQUEST") {
      ctx.log.warn({ ruleId: payload.ruleId, reason: error.message }, "uptime report not mailed");
      return;
    }
    throw error;
  }
  const texts = reportTexts(payload.language);
  const month = monthWords(payload.month, payload.language);
  const scope = scopeWords(document.report, texts);
  await ctx.mailer.send(
    { to: payload.to, subject: texts.mailSubject(month, scope), text: texts.mailText(month, scope) },
    [{ filename: document.filename, content: document.content, contentType: "application/pdf" }],
  );
}

/** Queues a firing for every due rule; a live job already holding the key makes it a no-op. */
async function catchUpDueMailings(ctx: AppContext): Promise<void> {
  const due = await uptimeMailRepo(ctx.db).findDueRulesAcrossDomains(ctx.now(), 500);
  if (due.length === 0) return;
  await ctx.jobs.transaction(async (trx) => {
    for (const rule of due) await enqueueMailFiring(ctx, trx, rule.domain_id, rule.id, rule.next_run);
  });
}

/** Registers the firing, the sending and the catch-up of the monthly uptime mail. */
export function registerUptimeMailJobs(ctx: AppContext): void {
  ctx.jobs.register(UPTIME_MAIL_FIRE_JOB, {
    maxAttempts: 8,
    handle: async ({ domainId, payload }) => {
      if (domainId === null) return;
      const month = await fireMailing(ctx, domainId, payload.ruleId, new Date(payload.occurrence));
      if (month) ctx.log.info({ ruleId: payload.ruleId, month }, "uptime mail rule fired");
    },
  });
  ctx.jobs.register(UPTIME_MAIL_SEND_JOB, {
    maxAttempts: 8,
    backoff: { baseMs: 5000, maxMs: 15 * 60_000 },
    timeoutMs: 5 * 60_000,
    handle: async ({ domainId, payload }) => {
      if (domainId !== null) await sendReport(ctx, domainId, payload);
    },
  });
  ctx.jobs.register(UPTIME_MAIL_CATCH_UP_JOB, { handle: () => catchUpDueMailings(ctx) });
  ctx.jobs.every(UPTIME_MAIL_CATCH_UP_JOB, CATCH_UP_INTERVAL_MS);
}
