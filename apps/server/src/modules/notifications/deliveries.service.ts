import {
  DELIVERY_MAX_ATTEMPTS,
  type Delivery,
  type DeliveryListRequestSchema,
  NEWS_LIMIT,
  type NewsAnswer,
  type NewsItem,
  type NewsLevel,
} from "@cellfleet/contract";
import type { z } from "zod";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { NotificationDeliveryAttemptRow } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { type DeliveryListRow, deliveriesRepo } from "./deliveries.repo";
import { NOTIFY_SEND_JOB } from "./engine/queue-message";
import { type NewsWithRuleRow, newsRepo } from "./news.repo";
import { notificationScope, seesNotifications } from "./scope";

/** The one mapper of a delivery row (with its attempts) to the log's answer. */
export function toDelivery(
  row: DeliveryListRow,
  attempts: readonly NotificationDeliveryAttemptRow[],
): Delivery {
  const isWaiting = row.state === "queued" || row.state === "retrying";
  return {
    _id: row.id,
    kind: row.kind,
    state: row.state,
    rule: row.rule_id && row.rule_name ? { _id: row.rule_id, name: row.rule_name } : null,
    transport:
      row.transport_id && row.transport_name && row.transport_type
        ? { _id: row.transport_id, name: row.transport_name, type: row.transport_type }
        : null,
    title: row.title,
    text: row.text,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_answer: row.last_answer,
    next_attempt_time: isWaiting && row.job_run_at ? row.job_run_at.getTime() : null,
    sent_time: row.sent_at?.getTime() ?? null,
    create_time: row.create_time.getTime(),
    attempt_log: attempts.map((attempt) => ({
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      status_code: attempt.status_code,
      answer: attempt.answer,
      start_time: attempt.start_time.getTime(),
      end_time: attempt.end_time?.getTime() ?? null,
    })),
  };
}

async function withAttempts(
  ctx: AppContext,
  scope: string | null,
  rows: DeliveryListRow[],
): Promise<Delivery[]> {
  const attempts = await deliveriesRepo(ctx.db).findAttempts(
    scope,
    rows.map((row) => row.id),
  );
  const byDelivery = new Map<string, NotificationDeliveryAttemptRow[]>();
  for (const attempt of attempts) {
    byDelivery.set(attempt.delivery_id, [...(byDelivery.get(attempt.delivery_id) ?? []), attempt]);
  }
  return rows.map((row) => toDelivery(row, byDelivery.get(row.id) ?? []));
}

/** POST /api/notifications/deliveries: the log, newest first; empty without the plugin. */
export async function listDeliveries(
  ctx: AppContext,
  session: SessionContext,
  request: z.output<typeof DeliveryListRequestSchema>,
): Promise<Delivery[]> {
  if (!seesNotifications(session)) return [];
  const scope = notificationScope(session);
  const rows = await deliveriesRepo(ctx.db).findDeliveries(scope, {
    states: request.state,
    ruleId: request.rule_id,
    transportId: request.transport_id,
    tagScope: tagScopeOf(session),
    limit: request.limit,
    offset: request.offset,
  });
  return withAttempts(ctx, scope, rows);
}

/**
 * POST /api/notifications/delivery/{id}/resend: a failed (or sent) message goes out again, now,
 * with a fresh set of attempts; its earlier attempts stay in its log.
 */
export async function resendDelivery(
  ctx: AppContext,
  session: SessionContext,
  id: string,
): Promise<Delivery> {
  const scope = notificationScope(session);
  const tagScope = tagScopeOf(session);
  // A delivery about routers outside the caller's tags is not theirs to find (ADR 041).
  if (
    tagScope.length > 0 &&
    (await deliveriesRepo(ctx.db).findDeliveries(scope, { id, tagScope, limit: 1, offset: 0 })).length === 0
  )
    throw new AppError("REPORT_NOT_FOUND", "No such delivery");
  await ctx.jobs.transaction(async (trx) => {
    const repo = deliveriesRepo(trx);
    const row = await repo.requeueDelivery(scope, id, ctx.now());
    if (!row) {
      const exists = await repo.findDeliveryWithTransport(scope, id);
      if (!exists) throw new AppError("REPORT_NOT_FOUND", "No such delivery");
      throw new AppError(
        "BAD_REQUEST",
        `Only a sent or failed message can be sent again; this one is ${exists.delivery.state}`,
      );
    }
    const jobId = await ctx.jobs.enqueue(trx, {
      kind: NOTIFY_SEND_JOB,
      payload: { delivery_id: id },
      domainId: scope,
      maxAttempts: DELIVERY_MAX_ATTEMPTS,
    });
    await repo.setDeliveryJob(scope, id, jobId);
  });
  const rows = await deliveriesRepo(ctx.db).findDeliveries(scope, { id, limit: 1, offset: 0 });
  const [delivery] = await withAttempts(ctx, scope, rows);
  if (!delivery) throw new AppError("REPORT_NOT_FOUND", "No such delivery");
  return delivery;
}

/** The one mapper of an in-app item. */
export function toNewsItem(row: NewsWithRuleRow): NewsItem {
  return {
    _id: row.id,
    level: row.level as NewsLevel,
    title: row.title,
    text: row.text,
    rule: row.rule_id && row.rule_name ? { _id: row.rule_id, name: row.rule_name } : null,
    create_time: row.create_time.getTime(),
    device_ids: row.device_ids,
  };
}

/** POST /api/notifications/news: the newest items and how many the person has not seen; empty without the plugin. */
export async function listNews(ctx: AppContext, session: SessionContext): Promise<NewsAnswer> {
  if (!seesNotifications(session)) return { items: [], unseen: 0, seen_until: null };
  const scope = notificationScope(session);
  const repo = newsRepo(ctx.db);
  const seenUntil = await repo.findSeenUntil(scope, session.user.id);
  const [rows, unseen] = await Promise.all([
    repo.findNews(scope, NEWS_LIMIT, tagScopeOf(session)),
    repo.countNewsSince(scope, seenUntil, tagScopeOf(session)),
  ]);
  return { items: rows.map(toNewsItem), unseen, seen_until: seenUntil?.getTime() ?? null };
}

/** POST /api/notifications/news/seen: everything up to `until` (default now) counts as seen. */
export async function markNewsSeen(
  ctx: AppContext,
  session: SessionContext,
  until?: number,
): Promise<NewsAnswer> {
  const at = until === undefined ? ctx.now() : new Date(Math.min(until, ctx.now().getTime()));
  await newsRepo(ctx.db).setSeenUntil(notificationScope(session), session.user.id, at);
  return listNews(ctx, session);
}
