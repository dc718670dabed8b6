import { type NoticeMessage, type NoticeReason, noticeTopic, PROTOCOL_VERSION } from "@cellfleet/contract";

/** Tells a device why one of its messages was refused (docs/device-protocol.md 4.6). */
export interface Notifier {
  notify(ident: string, reason: NoticeReason, topic: string): void;
}

/** The same device and reason is told at most once a minute: a device repeating a bad message is not flooded. */
const NOTICE_INTERVAL_MS = 60_000;
/** Past this many remembered (device, reason) pairs the memory starts afresh. */
const MAX_REMEMBERED = 100_000;

/**
 * Publishes notices through `publish` (the embedded broker's or the external subscriber's client),
 * QoS 0: a notice is advice, never retried or queued for a device that does not listen.
 */
export function createNotifier(
  publish: (topic: string, payload: Buffer) => void,
  clock: () => number = Date.now,
): Notifier & { sent(): number } {
  const last = new Map<string, number>();
  let sent = 0;
  return {
    notify(ident, reason, topic) {
      const key = `${ident}\u0000${reason}`;
      const now = clock();
      const previous = last.get(key);
      if (previous !== undefined && now - previous < NOTICE_INTERVAL_MS) return;
      if (last.size >= MAX_REMEMBERED) last.clear();
      last.set(key, now);
      sent++;
      const body: NoticeMessage = {
        v: PROTOCOL_VERSION,
        seq: now,
        ts: now,
        reason,
        topic: topic.slice(0, 256),
      };
      publish(noticeTopic(ident), Buffer.from(JSON.stringify(body)));
    },
    sent: () => sent,
  };
}
