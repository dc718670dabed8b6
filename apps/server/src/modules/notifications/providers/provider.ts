import type { ProviderFailure, SmtpSettings, TelegramSettings, WebhookSettings } from "@cellfleet/contract";

// What every provider client shares: the message it sends, what a success answers, and the one
// error a refusal becomes, with the reason the web shows (spec section 8) and the provider's words.

/** A message as providers send it: a title (a mail's subject) and the text. */
export interface ProviderMessage {
  title: string;
  text: string;
}

/** A provider's success: its status (HTTP or SMTP) and what it said. */
export interface ProviderSuccess {
  statusCode: number | null;
  answer: string;
}

/** Why a provider refused, in its own words (secrets scrubbed), and whether to wait before retrying. */
export class ProviderError extends Error {
  override name = "ProviderError";
  constructor(
    readonly reason: ProviderFailure,
    message: string,
    readonly statusCode: number | null = null,
    /** The provider asked to wait this long before the next request (429 retry_after). */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** The secret of each provider type. */
export interface TransportSecrets {
  telegram: { token: string };
  webhook: { webhook_url: string };
  smtp: { password: string };
}

/** A provider ready to send: its settings and its opened secret. */
export type ResolvedTransport =
  | { type: "telegram"; settings: TelegramSettings; secret: TransportSecrets["telegram"] }
  | { type: "webhook"; settings: WebhookSettings; secret: TransportSecrets["webhook"] }
  | { type: "smtp"; settings: SmtpSettings; secret: TransportSecrets["smtp"] };

/** What a provider client needs beyond the provider itself. */
export interface ProviderOptions {
  telegramApiUrl: string;
  webhookAllowPrivate: boolean;
  signal?: AbortSignal;
  /** Bounds in ms (tests shorten them); each client has its defaults. */
  timeouts?: { httpMs?: number; smtpConnectMs?: number; smtpSocketMs?: number };
  /** SMTP with an empty `to` (a superuser's provider): these addresses. */
  fallbackRecipients?: readonly string[];
  /** The group became a supergroup: the new chat id, to be stored (the message is resent there). */
  onChatMigrated?: (chatId: string) => Promise<void>;
}

/** Replaces every secret value inside a text with ***, so answers and errors can be stored and shown. */
export function scrubSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) scrubbed = scrubbed.split(secret).join("***");
  }
  return scrubbed.slice(0, 2000);
}
