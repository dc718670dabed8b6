import { DELIVERY_MAX_ATTEMPTS } from "@cellfleet/contract";
import type { AppContext } from "../../../platform/context";
import { RetryLaterError } from "../../../platform/jobs/jobs";
import { deliveriesRepo } from "../deliveries.repo";
import { newsRepo } from "../news.repo";
import { ProviderError, type ResolvedTransport } from "../providers/provider";
import { sendThroughProvider } from "../providers/send";
import { providerOptions } from "../scope";
import { resolveTransport } from "../transports.mapper";
import { transportsRepo } from "../transports.repo";
import { pacingKeysOf } from "./pacing";
import { NOTIFY_SEND_JOB } from "./queue-message";
import { rateSlotsRepo } from "./rate-slots.repo";

/** A send waits at most this long for its provider's next free moment; longer, it is retried then. */
const MAX_SEND_WAIT_MS = 10_000;

/**
 * Holds a send until its provider's keys allow it. The send times reserved when the message was
 * queued spread the jobs out, but jobs that ran late (a busy node) would bunch up: this second
 * reservation, taken as the send happens, keeps the actual sends within the provider's rate.
 */
async function waitForSendSlot(
  ctx: AppContext,
  transport: ResolvedTransport,
  signal: AbortSignal,
): Promise<void> {
  const keys = pacingKeysOf(transport).map((entry) => ({ ...entry, key: `send:${entry.key}` }));
  const now = ctx.now();
  const slot = await ctx.db.transaction().execute((trx) => rateSlotsRepo(trx).reserveSlot(keys, now));
  const wait = slot.getTime() - now.getTime();
  if (wait <= 0) return;
  if (wait > MAX_SEND_WAIT_MS) throw new RetryLaterError("Waiting for the provider's rate limit", wait);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, wait);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * Registers the send job: one attempt of one delivery, logged with its outcome and the provider's
 * answer. A failure is retried with backoff (10 s doubling to 30 min) and the delivery becomes a
 * dead letter after the last attempt; a 429's retry_after sets the next attempt's time instead.
 * The provider is read at each attempt, so a token fixed meanwhile is used by the retry.
 */
export function registerSendJob(ctx: AppContext, extra: { tlsCa?: string | Buffer } = {}): void {
  ctx.jobs.register(NOTIFY_SEND_JOB, {
    maxAttempts: DELIVERY_MAX_ATTEMPTS,
    backoff: { baseMs: 10_000, maxMs: 30 * 60_000 },
    timeoutMs: 90_000,
    async handle({ payload, domainId, attempt, signal }) {
      const deliveries = deliveriesRepo(ctx.db);
      const found = await deliveries.findDeliveryWithTransport(domainId, payload.delivery_id);
      // At least once: a delivery already sent (a node died before its job was marked done) is not sent again.
      if (!found || found.delivery.state === "sent") return;
      const { delivery, transport } = found;
      if (transport) await waitForSendSlot(ctx, resolveTransport(ctx.secrets, transport), signal);
      const number = await deliveries.startAttempt(domainId, payload.delivery_id, ctx.now());
      if (!transport) {
        await deliveries.finishAttempt(domainId, delivery.id, number, {
          state: "failed",
          attemptOutcome: "failed",
          statusCode: null,
          answer: "The provider was deleted",
          at: ctx.now(),
        });
        return;
      }
      const transports = transportsRepo(ctx.db);
      const resolved = resolveTransport(ctx.secrets, transport);
      const fallbackRecipients =
        resolved.type === "smtp" && resolved.settings.to.trim() === ""
          ? await newsRepo(ctx.db).findAudienceEmails(domainId, delivery.device_ids)
          : [];
      const isLast = attempt >= DELIVERY_MAX_ATTEMPTS;
      try {
        const sent = await sendThroughProvider(
          resolved,
          { title: delivery.title, text: delivery.text },
          {
            ...providerOptions(ctx, { signal, fallbackRecipients }),
            tlsCa: extra.tlsCa,
            onChatMigrated: (chatId) =>
              transports.updateTransportSettings(domainId, transport.id, {
                ...transport.settings,
                chat_id: chatId,
              }),
          },
        );
        await deliveries.finishAttempt(domainId, delivery.id, number, {
          state: "sent",
          attemptOutcome: "sent",
          statusCode: sent.statusCode,
          answer: sent.answer,
          at: ctx.now(),
        });
        await transports.recordTransportSuccess(domainId, transport.id, ctx.now());
      } catch (error) {
        const failure =
          error instanceof ProviderError
            ? error
            : new ProviderError("error", (error as Error).message ?? String(error));
        const now = ctx.now();
        const isRetryAfter = failure.retryAfterMs !== null && !isLast;
        await deliveries.finishAttempt(domainId, delivery.id, number, {
          state: isLast ? "failed" : "retrying",
          attemptOutcome: isRetryAfter ? "retry_after" : "failed",
          statusCode: failure.statusCode,
          answer: failure.message,
          at: now,
        });
        if (isRetryAfter) {
          // Flood control is not a broken provider: the wait is honoured, by this and the queued messages.
          const until = new Date(now.getTime() + (failure.retryAfterMs ?? 0));
          await rateSlotsRepo(ctx.db).deferKeys(pacingKeysOf(resolved), until);
          throw new RetryLaterError(failure.message, failure.retryAfterMs ?? 0);
        }
        await transports.recordTransportFailure(domainId, transport.id, failure.message, now);
        throw new Error(failure.message);
      }
    },
  });
}
