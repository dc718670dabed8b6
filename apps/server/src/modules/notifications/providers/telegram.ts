import type { BotChat, TelegramSettings } from "@cellfleet/contract";
import { HttpRequestError, postJson } from "./http-client";
import {
  ProviderError,
  type ProviderMessage,
  type ProviderOptions,
  type ProviderSuccess,
  scrubSecrets,
} from "./provider";

// The Telegram Bot API (https://core.telegram.org/bots/api): POST {base}/bot{token}/{method} with
// JSON; every answer is `{ ok: true, result }` or `{ ok: false, error_code, description,
// parameters?: { retry_after, migrate_to_chat_id } }`. The base URL is a setting
// (TELEGRAM_API_URL), so a local Bot API server or a test's loopback one can stand in.

/** Telegram cuts a message at 4096 characters. */
export const TELEGRAM_MAX_TEXT = 4096;

interface BotApiAnswer {
  ok?: boolean;
  result?: unknown;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

/** A refusal of the Bot API with its documented fields. */
class BotApiError extends ProviderError {
  constructor(
    reason: ConstructorParameters<typeof ProviderError>[0],
    message: string,
    statusCode: number | null,
    retryAfterMs: number | null,
    readonly migrateToChatId: string | null,
  ) {
    super(reason, message, statusCode, retryAfterMs);
  }
}

/** The reason the web shows for a Bot API refusal (spec section 8). */
function reasonOf(code: number, description: string): ConstructorParameters<typeof ProviderError>[0] {
  if (code === 401) return "invalid_token";
  if (/chat not found/i.test(description)) return "chat_not_found";
  return "error";
}

/** Calls a Bot API method; answers `result`, or throws a ProviderError with the token scrubbed. */
async function callBotApi(
  token: string,
  method: string,
  params: Record<string, unknown>,
  options: ProviderOptions,
): Promise<unknown> {
  const url = new URL(`${options.telegramApiUrl}/bot${token}/${method}`);
  let answer: Awaited<ReturnType<typeof postJson>>;
  try {
    answer = await postJson(url, params, { timeoutMs: options.timeouts?.httpMs, signal: options.signal });
  } catch (error) {
    const text = error instanceof HttpRequestError ? `${error.code}: ${error.message}` : String(error);
    throw new ProviderError("error", scrubSecrets(`Telegram is unreachable (${text})`, [token]));
  }
  let body: BotApiAnswer;
  try {
    body = JSON.parse(answer.body) as BotApiAnswer;
  } catch {
    throw new ProviderError(
      "error",
      scrubSecrets(`Telegram answered ${answer.status} without JSON: ${answer.body.slice(0, 200)}`, [token]),
      answer.status,
    );
  }
  if (body.ok === true) return body.result;
  const code = body.error_code ?? answer.status;
  const description = scrubSecrets(body.description ?? `HTTP ${answer.status}`, [token]);
  const retryAfter = body.parameters?.retry_after;
  const migrateTo = body.parameters?.migrate_to_chat_id;
  throw new BotApiError(
    retryAfter !== undefined ? "error" : reasonOf(code, description),
    `${code} ${description}`,
    code,
    retryAfter !== undefined ? retryAfter * 1000 : null,
    migrateTo !== undefined ? String(migrateTo) : null,
  );
}

/** A chat id as the Bot API takes it: a number, or an `@channel` name. */
function chatIdParam(chatId: string): number | string {
  return /^-?\d+$/.test(chatId) ? Number(chatId) : chatId;
}

/**
 * Sends a message with sendMessage. A group that became a supergroup answers 400 with
 * migrate_to_chat_id: the new id is handed to `onChatMigrated` (stored on the provider) and the
 * message goes there at once. A 429's retry_after is kept on the error for the job's next attempt.
 */
export async function sendTelegram(
  settings: TelegramSettings,
  token: string,
  message: ProviderMessage,
  options: ProviderOptions,
): Promise<ProviderSuccess> {
  let chatId = settings.chat_id;
  for (let hop = 0; hop < 2; hop += 1) {
    try {
      const result = (await callBotApi(
        token,
        "sendMessage",
        {
          chat_id: chatIdParam(chatId),
          text: message.text.slice(0, TELEGRAM_MAX_TEXT),
          ...(settings.message_thread_id ? { message_thread_id: settings.message_thread_id } : {}),
          disable_notification: settings.silent,
          protect_content: settings.protect_content,
          link_preview_options: { is_disabled: true },
        },
        options,
      )) as { message_id?: number };
      const moved = chatId === settings.chat_id ? "" : ` (the group moved to ${chatId})`;
      return { statusCode: 200, answer: `ok, message_id ${result?.message_id ?? "?"}${moved}` };
    } catch (error) {
      if (!(error instanceof BotApiError) || error.migrateToChatId === null || hop > 0) throw error;
      chatId = error.migrateToChatId;
      await options.onChatMigrated?.(chatId);
    }
  }
  throw new ProviderError("error", "The chat moved more than once");
}

interface ChatLike {
  id?: number;
  type?: string;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}

function chatTitle(chat: ChatLike): string {
  if (chat.title) return chat.title;
  const name = [chat.first_name, chat.last_name].filter(Boolean).join(" ");
  if (name) return chat.username ? `${name} (@${chat.username})` : name;
  return chat.username ? `@${chat.username}` : String(chat.id);
}

/**
 * The chats the bot has heard from lately (getUpdates): people who wrote to it, groups it was added
 * to or that wrote to it, channels it posts in. Empty when nobody wrote since the updates were read
 * (Telegram keeps them 24 hours); a bot with a webhook set answers 409, shown as is.
 */
export async function findBotChats(token: string, options: ProviderOptions): Promise<BotChat[]> {
  const updates = (await callBotApi(
    token,
    "getUpdates",
    {
      limit: 100,
      timeout: 0,
      allowed_updates: ["message", "edited_message", "channel_post", "my_chat_member"],
    },
    options,
  )) as Array<Record<string, { chat?: ChatLike } | undefined>>;
  const chats = new Map<string, BotChat>();
  for (const update of Array.isArray(updates) ? updates : []) {
    for (const key of ["message", "edited_message", "channel_post", "my_chat_member"]) {
      const chat = update[key]?.chat;
      if (chat?.id === undefined) continue;
      chats.set(String(chat.id), { id: String(chat.id), type: chat.type ?? "", title: chatTitle(chat) });
    }
  }
  return [...chats.values()];
}
