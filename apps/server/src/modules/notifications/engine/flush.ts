import {
  composeIncidentMessage,
  type MessageLine,
  MONITORS,
  type MonitorName,
  type NewsItem,
  type NewsLevel,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../../platform/context";
import type { DB, NotificationIncidentRow, NotificationRuleRow } from "../../../platform/db/schema";
import { MAX_LINES_BY_TYPE, MAX_TEXT_BY_TYPE } from "../providers/send";
import { rulesRepo } from "../rules.repo";
import { transportLocale } from "../transports.mapper";
import { transportsRepo } from "../transports.repo";
import { type IncidentSettlement, incidentsRepo } from "./incidents.repo";
import { publishNews, queueMessage } from "./queue-message";

/** The job kind that turns a rule's due incidents into one message. */
export const NOTIFY_FLUSH_JOB = "notifications.flush";

/**
 * Incidents due within one such window share a flush, and so a message: 10,000 routers going
 * critical in one sweep become one message per rule, not 10,000.
 */
export const FLUSH_WINDOW_MS = 5000;

/** Occurrences repeating within this (or the rule's tolerance, if longer) count into one incident. */
export const MIN_OCCURRENCE_WINDOW_MS = 5 * 60_000;

/** How long a rule's occurrence incident stays open after it last happened. */
export function occurrenceWindowMs(rule: Pick<NotificationRuleRow, "tolerance_minutes">): number {
  return Math.max(rule.tolerance_minutes * 60_000, MIN_OCCURRENCE_WINDOW_MS);
}

/** The flush job's payload. */
export interface FlushPayload {
  rule_id: string;
}

declare module "../../../platform/jobs/jobs" {
  interface JobPayloads {
    "notifications.flush": FlushPayload;
  }
}

/**
 * Makes sure a flush of the rule runs at or after `at`: one job per rule and window (a dedupe key),
 * however many incidents fall due in it.
 */
export async function scheduleFlush(
  ctx: AppContext,
  trx: Kysely<DB>,
  domainId: string | null,
  ruleId: string,
  at: Date,
): Promise<void> {
  const window = Math.ceil(at.getTime() / FLUSH_WINDOW_MS) * FLUSH_WINDOW_MS;
  await ctx.jobs.enqueue(trx, {
    kind: NOTIFY_FLUSH_JOB,
    payload: { rule_id: ruleId },
    domainId,
    runAt: new Date(window),
    dedupeKey: `notify-flush:${ruleId}:${window}`,
  });
}

/** The kinds of incident subject whose key names a router next (`device:{id}`, `event:{id}:{kind}`…). */
const ROUTER_SUBJECTS = new Set(["device", "event", "action", "firmware"]);

/** The router an incident's subject names, or null (a person, a licence, a password). */
export function routerOfSubject(subjectKey: string): string | null {
  const [kind = "", id] = subjectKey.split(":");
  return ROUTER_SUBJECTS.has(kind) && id ? id : null;
}

function lineOf(row: NotificationIncidentRow, column: "opened_line" | "resolved_line"): MessageLine {
  const raw = (row[column] ?? row.opened_line) as unknown as MessageLine & { closeAtMs?: number };
  return { key: raw.key, params: raw.params };
}

/** How serious a message is, for the in-app list. */
function levelOf(
  monitor: MonitorName,
  opened: readonly MessageLine[],
  resolved: readonly MessageLine[],
): NewsLevel {
  if (opened.length === 0) return resolved.length > 0 ? "success" : "info";
  if (MONITORS[monitor].style === "state") return "error";
  const levels = opened.map((line) => String(line.params.level ?? ""));
  if (levels.includes("error")) return "error";
  return levels.includes("warning") ? "warning" : "info";
}

/**
 * The flush: in one transaction, takes the rule's due incidents, announces the pending ones, ends
 * the closing ones, closes the quiet occurrences (summing up their repeats), and queues one message
 * with all of it. A rule switched off or without a provider closes them without a word.
 */
export async function flushRule(ctx: AppContext, domainId: string | null, ruleId: string): Promise<void> {
  const news: NewsItem[] = [];
  await ctx.jobs.transaction(async (trx) => {
    const now = ctx.now();
    const incidents = incidentsRepo(trx);
    const due = await incidents.claimDueIncidents(domainId, ruleId, now);
    if (due.length === 0) return;
    const rule = await rulesRepo(trx).findRule(domainId, ruleId);
    const transport = rule?.transport_id
      ? await transportsRepo(trx).findTransport(domainId, rule.transport_id)
      : undefined;
    const isLive = rule?.active && !rule.draft && transport;
    const settlements: IncidentSettlement[] = [];
    const opened: MessageLine[] = [];
    const resolved: MessageLine[] = [];
    const summarized: MessageLine[] = [];
    const routers = new Set<string>();
    const names = (row: NotificationIncidentRow) => {
      const router = routerOfSubject(row.subject_key);
      if (router) routers.add(router);
    };
    for (const row of due) {
      const closed = { id: row.id, state: "closed" as const, dueAt: null, announcedAt: null, closedAt: now };
      if (!isLive) {
        settlements.push(closed);
      } else if (row.state === "pending") {
        opened.push(lineOf(row, "opened_line"));
        names(row);
        const closeAtMs = (row.opened_line as { closeAtMs?: number }).closeAtMs;
        const dueAt =
          row.style === "state"
            ? null
            : new Date(
                closeAtMs ?? Math.max(now.getTime(), row.last_seen_at.getTime() + occurrenceWindowMs(rule)),
              );
        settlements.push({ id: row.id, state: "open", dueAt, announcedAt: now, closedAt: null });
      } else if (row.state === "closing") {
        resolved.push(lineOf(row, "resolved_line"));
        names(row);
        settlements.push(closed);
      } else {
        if (row.repeats > 0) {
          summarized.push({ ...lineOf(row, "opened_line"), repeats: row.repeats });
          names(row);
        }
        settlements.push(closed);
      }
    }
    await incidents.settleIncidents(domainId, settlements);
    // Announced occurrences close after their quiet window: a flush must come by then.
    const closings = new Set(
      settlements.flatMap((s) =>
        s.state === "open" && s.dueAt
          ? [Math.ceil(s.dueAt.getTime() / FLUSH_WINDOW_MS) * FLUSH_WINDOW_MS]
          : [],
      ),
    );
    for (const at of closings) await scheduleFlush(ctx, trx, domainId, ruleId, new Date(at));
    if (!isLive || opened.length + resolved.length + summarized.length === 0) return;
    const locale = transportLocale(transport);
    const message = composeIncidentMessage({
      locale,
      prefix: transport.prefix,
      ruleName: rule.name,
      opened,
      resolved,
      summarized,
      maxLines: MAX_LINES_BY_TYPE[transport.type],
      maxChars: MAX_TEXT_BY_TYPE[transport.type],
    });
    news.push(
      await queueMessage(ctx, trx, {
        domainId,
        ruleId,
        ruleName: rule.name,
        transport,
        kind: "incidents",
        title: message.title,
        text: message.text,
        level: levelOf(rule.monitor as MonitorName, opened, resolved),
        deviceIds: routers.size > 0 ? [...routers] : null,
      }),
    );
  });
  await publishNews(ctx, domainId, news);
}

/** Registers the flush job. */
export function registerFlushJob(ctx: AppContext): void {
  ctx.jobs.register(NOTIFY_FLUSH_JOB, {
    maxAttempts: 10,
    backoff: { baseMs: 2000, maxMs: 5 * 60_000 },
    async handle({ payload, domainId }) {
      await flushRule(ctx, domainId, payload.rule_id);
    },
  });
}
