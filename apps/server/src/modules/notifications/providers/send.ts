import type { ProviderMessage, ProviderOptions, ProviderSuccess, ResolvedTransport } from "./provider";
import { sendSmtp } from "./smtp";
import { sendTelegram } from "./telegram";
import { sendWebhook } from "./webhook";

/** Sends a message through a provider of any type; a refusal throws a ProviderError. */
export function sendThroughProvider(
  transport: ResolvedTransport,
  message: ProviderMessage,
  options: ProviderOptions & { tlsCa?: string | Buffer },
): Promise<ProviderSuccess> {
  switch (transport.type) {
    case "telegram":
      return sendTelegram(transport.settings, transport.secret.token, message, options);
    case "webhook":
      return sendWebhook(transport.settings, transport.secret.webhook_url, message, options);
    case "smtp":
      return sendSmtp(transport.settings, transport.secret.password, message, options);
  }
}

/** Longest text each type takes: a chat cuts long messages, a mail does not. */
export const MAX_TEXT_BY_TYPE = { telegram: 4096, webhook: 4000, smtp: 100_000 } as const;
/** Lines listed per section of a message, by type: a chat stays readable, a mail may list more. */
export const MAX_LINES_BY_TYPE = { telegram: 30, webhook: 30, smtp: 1000 } as const;
