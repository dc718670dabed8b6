import { randomUUID } from "node:crypto";
import {
  DELIVERY_MAX_ATTEMPTS,
  type NewsItem,
  type NewsLevel,
  type ServerSocketMessage,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import { domainTopic, SUPERUSERS_TOPIC } from "../../../platform/bus/bus";
import type { AppContext } from "../../../platform/context";
import type { DB, NotificationTransportRow } from "../../../platform/db/schema";
import { deliveriesRepo } from "../deliveries.repo";
import { newsRepo } from "../news.repo";
import { resolveTransport } from "../transports.mapper";
import { pacingKeysOf } from "./pacing";
import { rateSlotsRepo } from "./rate-slots.repo";

/** The job kind that sends one delivery. */
export const NOTIFY_SEND_JOB = "notifications.send";

declare module "../../../platform/jobs/jobs" {
  interface JobPayloads {
    "notifications.send": { delivery_id: string };
  }
}

/** A message of a rule, ready to go out through its provider. */
export interface OutgoingMessage {
  domainId: string | null;
  ruleId: string | null;
  ruleName: string | null;
  transport: NotificationTransportRow;
  kind: "incidents" | "digest";
  title: string;
  text: string;
  level: NewsLevel;
  /** The routers its lines name (ADR 041: people limited to tags see only theirs); null: none. */
  deviceIds: string[] | null;
}

/**
 * Queues a message in the caller's transaction: the delivery row, its send job at the paced time
 * the provider's keys allow, and the in-app item. Answers the item, to be pushed to sockets once
 * the transaction committed.
 */
export async function queueMessage(
  ctx: AppContext,
  trx: Kysely<DB>,
  message: OutgoingMessage,
): Promise<NewsItem> {
  const now = ctx.now();
  const resolved = resolveTransport(ctx.secrets, message.transport);
  const runAt = await rateSlotsRepo(trx).reserveSlot(pacingKeysOf(resolved), now);
  const deliveryId = randomUUID();
  const deliveries = deliveriesRepo(trx);
  await deliveries.insertDelivery(message.domainId, {
    id: deliveryId,
    ruleId: message.ruleId,
    transportId: message.transport.id,
    kind: message.kind,
    title: message.title,
    text: message.text,
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
    deviceIds: message.deviceIds,
    at: now,
  });
  const jobId = await ctx.jobs.enqueue(trx, {
    kind: NOTIFY_SEND_JOB,
    payload: { delivery_id: deliveryId },
    domainId: message.domainId,
    runAt,
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
  });
  await deliveries.setDeliveryJob(message.domainId, deliveryId, jobId);
  const newsId = randomUUID();
  await newsRepo(trx).insertNews(message.domainId, {
    id: newsId,
    ruleId: message.ruleId,
    level: message.level,
    title: message.title,
    text: message.text,
    deviceIds: message.deviceIds,
    at: now,
  });
  return {
    _id: newsId,
    level: message.level,
    title: message.title,
    text: message.text,
    rule: message.ruleId && message.ruleName ? { _id: message.ruleId, name: message.ruleName } : null,
    create_time: now.getTime(),
    device_ids: message.deviceIds,
  };
}

/** Pushes committed in-app items to the scope's sockets (best effort, like every realtime push). */
export async function publishNews(
  ctx: AppContext,
  domainId: string | null,
  items: NewsItem[],
): Promise<void> {
  if (items.length === 0) return;
  const message: ServerSocketMessage = { type: "notifications", content: items };
  try {
    await ctx.bus.publish(domainId === null ? SUPERUSERS_TOPIC : domainTopic(domainId), message);
  } catch (error) {
    ctx.log.error({ err: error }, "publishing notifications failed");
  }
}
