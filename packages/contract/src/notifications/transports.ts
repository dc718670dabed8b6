import { z } from "zod";
import { LocaleSchema } from "../constantSchemas";
import { EmailListSchema, EmailSchema } from "../validators/contact";
import { PortSchema } from "../validators/numbers";
import { keyedString } from "../validators/shared";
import { RequiredTextSchema } from "../validators/textSchemas";

// Notification providers ("transports", spec sections 2 and 3): a messenger bot (Telegram), a
// webhook chat (Slack, Mattermost, Rocket.Chat incoming webhooks) and SMTP mail. Secrets (the bot
// token, the webhook URL, the SMTP password) are write-only: bodies may carry them, answers never do.
// The bot token travels as `bot_token`: a body's `token` is the session's (spec section 7).

export const TRANSPORT_TYPES = ["telegram", "webhook", "smtp"] as const;
/** A provider's type. */
export type TransportType = (typeof TRANSPORT_TYPES)[number];

/** The incoming-webhook formats a webhook chat provider speaks. */
export const WEBHOOK_FORMATS = ["slack", "mattermost", "rocketchat"] as const;
/** A webhook chat's format. */
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** A provider failing this many times in a row shows as unhealthy on its row. */
export const TRANSPORT_UNHEALTHY_AFTER_FAILURES = 3;
/** Longest message prefix. */
export const MESSAGE_PREFIX_MAX_LENGTH = 64;

const CHAT_ID_PATTERN = /^(?:-?[1-9]\d{0,19}|@[A-Za-z][A-Za-z0-9_]{3,31})$/;
/** A Telegram chat id: a number (groups are negative) or a public channel's `@name`. */
export function validateChatId(value: string): "required" | "patternMismatch" | null {
  if (value.trim() === "") return "required";
  return CHAT_ID_PATTERN.test(value.trim()) ? null : "patternMismatch";
}

const HTTP_URL_PATTERN =
  /^https?:\/\/(?:[^\s/?#@]+@)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?(?:[/?#]\S*)?$/;
/** An http(s) URL with a host (a webhook's address); no spaces. */
export function validateHttpUrl(value: string): "required" | "urlInvalid" | null {
  if (value.trim() === "") return "required";
  return HTTP_URL_PATTERN.test(value.trim()) ? null : "urlInvalid";
}

const HOST_PATTERN =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** A host name or an IPv4 address (an SMTP server). */
export function validateHost(value: string): "required" | "hostInvalid" | null {
  if (value.trim() === "") return "required";
  const text = value.trim();
  return text.length <= 253 && HOST_PATTERN.test(text) ? null : "hostInvalid";
}

const ChatIdSchema = keyedString(validateChatId);
const WebhookUrlSchema = keyedString(validateHttpUrl).pipe(z.string().max(2048, "urlInvalid"));
const HostSchema = keyedString(validateHost);
const BOT_TOKEN_PATTERN = /^\d{1,20}:[A-Za-z0-9_-]{20,100}$/;
/** A Telegram bot token as BotFather gives it: `<digits>:<letters, digits, _ and ->`. */
export function validateBotToken(value: string): "required" | "patternMismatch" | null {
  if (value.trim() === "") return "required";
  return BOT_TOKEN_PATTERN.test(value.trim()) ? null : "patternMismatch";
}
const BotTokenSchema = keyedString(validateBotToken);
const OptionalTextSchema = z.string().trim().max(255, "textTooLong").default("");

/** Fields every provider has: a name, a prefix before each message, and the messages' language. */
const CommonFields = {
  name: RequiredTextSchema,
  prefix: z.string().trim().max(MESSAGE_PREFIX_MAX_LENGTH, "textTooLong").default(""),
  language: LocaleSchema.default("ru"),
};

/** Telegram's settings that are not secret. */
export const TelegramSettingsSchema = z.object({
  chat_id: ChatIdSchema,
  /** A forum supergroup's topic. */
  message_thread_id: z.number().int().positive().nullable().default(null),
  /** Sent silently: the recipients get no sound. */
  silent: z.boolean().default(false),
  /** Protects the messages from forwarding and saving. */
  protect_content: z.boolean().default(false),
});
/** A webhook chat's settings that are not secret. */
export const WebhookSettingsSchema = z.object({
  format: z.enum(WEBHOOK_FORMATS).default("slack"),
  /** The sender's name the chat shows (Slack and Mattermost `username`, Rocket.Chat `alias`). */
  display_name: OptionalTextSchema,
});
/** SMTP's settings that are not secret. `tls`: STARTTLS required; `ssl`: implicit TLS (port 465). */
export const SmtpSettingsSchema = z.object({
  host: HostSchema,
  port: PortSchema.default(587),
  tls: z.boolean().default(false),
  ssl: z.boolean().default(false),
  username: OptionalTextSchema,
  from: EmailSchema,
  /** Recipients, comma or semicolon separated; required unless a superuser owns the provider. */
  to: EmailListSchema.default(""),
  cc: EmailListSchema.default(""),
  bcc: EmailListSchema.default(""),
  /** A subject of one's own instead of the generated one. */
  subject: OptionalTextSchema,
});
export type TelegramSettings = z.infer<typeof TelegramSettingsSchema>;
export type WebhookSettings = z.infer<typeof WebhookSettingsSchema>;
export type SmtpSettings = z.infer<typeof SmtpSettingsSchema>;

/**
 * Body of POST /api/notifications/transport/new (admins and superusers with the notification
 * plugin): the type, the common fields, the type's settings and its secret. TRANSPORT_CREATE_ERROR
 * when the name is taken.
 */
export const CreateTransportSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("telegram"),
    ...CommonFields,
    ...TelegramSettingsSchema.shape,
    bot_token: BotTokenSchema,
  }),
  z.object({
    type: z.literal("webhook"),
    ...CommonFields,
    ...WebhookSettingsSchema.shape,
    webhook_url: WebhookUrlSchema,
  }),
  z.object({
    type: z.literal("smtp"),
    ...CommonFields,
    ...SmtpSettingsSchema.shape,
    password: z.string().max(255).default(""),
  }),
]);
/** Body of POST /api/notifications/transport/new. */
export type CreateTransport = z.input<typeof CreateTransportSchema>;
/** Parsed body of POST /api/notifications/transport/new. */
export type CreateTransportParsed = z.output<typeof CreateTransportSchema>;

const UpdateTelegramSchema = z.object({
  type: z.literal("telegram"),
  ...CommonFields,
  ...TelegramSettingsSchema.shape,
  bot_token: BotTokenSchema.optional(),
});
const UpdateWebhookSchema = z.object({
  type: z.literal("webhook"),
  ...CommonFields,
  ...WebhookSettingsSchema.shape,
  webhook_url: WebhookUrlSchema.optional(),
});
const UpdateSmtpSchema = z.object({
  type: z.literal("smtp"),
  ...CommonFields,
  ...SmtpSettingsSchema.shape,
  password: z.string().max(255).optional(),
});

/**
 * Body of PUT /api/notifications/transport/{id}: every field as on create, but a secret that is
 * left out keeps its stored value (the form never has it); the type cannot change.
 */
export const UpdateTransportSchema = z.discriminatedUnion("type", [
  UpdateTelegramSchema,
  UpdateWebhookSchema,
  UpdateSmtpSchema,
]);
/** Body of PUT /api/notifications/transport/{id}. */
export type UpdateTransport = z.input<typeof UpdateTransportSchema>;
/** Parsed body of PUT /api/notifications/transport/{id}. */
export type UpdateTransportParsed = z.output<typeof UpdateTransportSchema>;

/** How a provider has been doing: a provider failing repeatedly is unhealthy. */
export const TransportHealthSchema = z.object({
  healthy: z.boolean(),
  /** Failed deliveries in a row (0 after a success). */
  failures: z.number().int(),
  last_error: z.string().nullable(),
  last_failure_time: z.number().nullable(),
  last_success_time: z.number().nullable(),
});
export type TransportHealth = z.infer<typeof TransportHealthSchema>;

/**
 * A provider as answers show it: its settings, whether its secret is set, and (for a webhook) only
 * the URL's host, since the whole URL is the secret.
 */
export const TransportSchema = z.object({
  _id: z.string(),
  name: z.string(),
  type: z.enum(TRANSPORT_TYPES),
  prefix: z.string(),
  language: LocaleSchema,
  telegram: TelegramSettingsSchema.extend({ chat_id: z.string() }).nullable(),
  webhook: WebhookSettingsSchema.extend({ host: z.string() }).nullable(),
  smtp: SmtpSettingsSchema.extend({ from: z.string(), host: z.string() }).nullable(),
  /** The secret (token, URL or password) is stored; it is never sent back. */
  has_secret: z.boolean(),
  health: TransportHealthSchema,
  /** Rules using it: it cannot be deleted while this is above 0 (TRANSPORT_IS_USED). */
  rules: z.number().int(),
  create_time: z.number(),
});
/** A provider. */
export type Transport = z.infer<typeof TransportSchema>;

/** POST /api/notifications/transports: `search` over the name. Empty without the notification plugin. */
export const TransportListRequestSchema = z.object({ search: z.string().trim().max(255).optional() });
export type TransportListRequest = z.infer<typeof TransportListRequestSchema>;
/** Answer of POST /api/notifications/transports. */
export const TransportListAnswerSchema = z.object({ items: z.array(TransportSchema) });
export type TransportListAnswer = z.infer<typeof TransportListAnswerSchema>;

const TestIdField = { transport_id: z.string().max(64).optional() };
/**
 * Body of POST /api/notifications/transport/test: the form's values (a provider not saved yet, or
 * changed), sent as one test message now. With `transport_id`, a secret left out is the stored one.
 */
export const TestTransportSchema = z.discriminatedUnion("type", [
  UpdateTelegramSchema.extend(TestIdField),
  UpdateWebhookSchema.extend(TestIdField),
  UpdateSmtpSchema.extend(TestIdField),
]);
export type TestTransport = z.input<typeof TestTransportSchema>;
export type TestTransportParsed = z.output<typeof TestTransportSchema>;

/**
 * Why a provider refused (spec section 8): chat not found; invalid token on 401; bad configuration
 * (the form's values cannot work); any other error shows the provider's raw answer.
 */
export const PROVIDER_FAILURES = ["chat_not_found", "invalid_token", "bad_configuration", "error"] as const;
export type ProviderFailure = (typeof PROVIDER_FAILURES)[number];

/** Answer of the test message: sent, or why not with the provider's own words. */
export const TestTransportAnswerSchema = z.object({
  ok: z.boolean(),
  reason: z.enum(PROVIDER_FAILURES).nullable(),
  description: z.string(),
});
export type TestTransportAnswer = z.infer<typeof TestTransportAnswerSchema>;

/**
 * Body of POST /api/notifications/transport/chats: the bot token typed in the form, or the stored
 * one of `transport_id`. The bot's recent updates name the chats that wrote to it.
 */
export const ChatLookupSchema = z
  .object({ bot_token: BotTokenSchema.optional(), transport_id: z.string().max(64).optional() })
  .refine((body) => body.bot_token !== undefined || body.transport_id !== undefined, {
    message: "required",
    path: ["bot_token"],
  });
export type ChatLookup = z.input<typeof ChatLookupSchema>;

/** A chat the bot has heard from. */
export const BotChatSchema = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
});
export type BotChat = z.infer<typeof BotChatSchema>;

/**
 * Answer of the chat lookup. No chats: the person should write to the bot (or add it to the group
 * and post there) and look again. `ok: false` carries the Bot API's refusal.
 */
export const ChatLookupAnswerSchema = z.object({
  ok: z.boolean(),
  chats: z.array(BotChatSchema),
  reason: z.enum(PROVIDER_FAILURES).nullable(),
  description: z.string(),
});
export type ChatLookupAnswer = z.infer<typeof ChatLookupAnswerSchema>;
