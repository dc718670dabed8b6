import { createHash } from "node:crypto";
import type { ResolvedTransport } from "../providers/provider";

// Pacing: each message gets a send time that keeps every provider within its documented rate,
// reserved in the same transaction that queues the message, so N nodes share one schedule. The
// send job simply runs at that time; no handler sleeps holding a job slot.
//
// - Telegram (core.telegram.org/bots/faq#broadcasting-to-users): about 30 messages a second per
//   bot, one a second per chat, 20 a minute per group or channel.
// - Slack incoming webhooks (api.slack.com/apis/rate-limits): one message a second per webhook,
//   short bursts allowed; Mattermost and Rocket.Chat rate limits are their administrator's and
//   default looser, so a webhook is paced as Slack asks.
// - SMTP has no common limit; two mails a second per account stays below what mail providers
//   accept from one sender (ours: messages are grouped per rule, so they are few).

/** One pacing key and the least time between two sends under it. */
export interface PacingKey {
  key: string;
  spacingMs: number;
}

// 25 a second: "about 30" leaves no room for the jitter of real sends, so a margin is kept.
export const TELEGRAM_BOT_SPACING_MS = 40;
export const TELEGRAM_PRIVATE_CHAT_SPACING_MS = 1000;
export const TELEGRAM_GROUP_SPACING_MS = 3000;
export const WEBHOOK_SPACING_MS = 1000;
export const SMTP_SPACING_MS = 500;

/** A short digest of a secret, so a key names a bot or a webhook without holding its credential. */
function digest(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, 16);
}

/** The keys a message through this provider is paced by. */
export function pacingKeysOf(transport: ResolvedTransport): PacingKey[] {
  switch (transport.type) {
    case "telegram": {
      const bot = digest(transport.secret.token);
      const chat = transport.settings.chat_id;
      // Private chats have positive ids; groups, supergroups and @channels are paced as groups.
      const isPrivate = /^[1-9]\d*$/.test(chat);
      return [
        { key: `tg:${bot}`, spacingMs: TELEGRAM_BOT_SPACING_MS },
        {
          key: `tg:${bot}:${chat}`,
          spacingMs: isPrivate ? TELEGRAM_PRIVATE_CHAT_SPACING_MS : TELEGRAM_GROUP_SPACING_MS,
        },
      ];
    }
    case "webhook":
      return [{ key: `hook:${digest(transport.secret.webhook_url)}`, spacingMs: WEBHOOK_SPACING_MS }];
    case "smtp": {
      const { host, port, username } = transport.settings;
      return [{ key: `smtp:${digest(`${host}:${port}:${username}`)}`, spacingMs: SMTP_SPACING_MS }];
    }
  }
}
