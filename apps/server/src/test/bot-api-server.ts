import http from "node:http";
import type { AddressInfo } from "node:net";

// A loopback stand-in for the Telegram Bot API, for tests, the browser test and the benchmark. It
// answers as https://core.telegram.org/bots/api documents: `{ ok: true, result }`, or
// `{ ok: false, error_code, description, parameters? }` with 401 Unauthorized for an unknown token,
// 400 "Bad Request: chat not found", 400 with parameters.migrate_to_chat_id for a group that became
// a supergroup, 429 "Too Many Requests: retry after N" with parameters.retry_after. With `enforceLimits`
// it also holds senders to the documented rates (about 30 messages a second per bot, one a second
// per chat, 20 a minute per group) and answers 429 past them, so a test sees whether pacing works.

/** A message the fake Bot API accepted. */
export interface BotMessage {
  token: string;
  chatId: string;
  text: string;
  messageThreadId: number | null;
  disableNotification: boolean;
  protectContent: boolean;
  /** When it arrived, ms since the epoch (the real clock). */
  at: number;
}

/** A chat the fake knows. */
export interface BotChatInfo {
  type: "private" | "group" | "supergroup" | "channel";
  title: string;
}

/** The fake's controls and what it saw. */
export interface BotApiServer {
  /** Its base URL (the TELEGRAM_API_URL setting). */
  url: string;
  /** Tokens it accepts; anything else answers 401. */
  tokens: Set<string>;
  /** Chats it knows; sending elsewhere answers "chat not found". */
  chats: Map<string, BotChatInfo>;
  /** Accepted messages, in order. */
  messages: BotMessage[];
  /** Every request's method name and status, in order. */
  calls: Array<{ method: string; status: number }>;
  /** Updates getUpdates answers. */
  updates: unknown[];
  /** A group that became a supergroup: sending to `from` answers 400 with migrate_to_chat_id `to`. */
  migrate(from: string, to: string): void;
  /** The next `count` sendMessage calls answer 429 with retry_after `seconds`. */
  flood(seconds: number, count?: number): void;
  /** The next `count` calls answer this status and description. */
  failNext(status: number, description: string, count?: number): void;
  /** Every answer waits this long first (a slow or hung API). */
  delayMs: number;
  /** Answer 429 past the documented rates. */
  enforceLimits: boolean;
  /** Waits until `count` messages arrived (at most `timeoutMs`). */
  waitForMessages(count: number, timeoutMs?: number): Promise<BotMessage[]>;
  close(): Promise<void>;
}

const BOT_USER = { id: 7000000001, is_bot: true, first_name: "Cellfleet", username: "cellfleet_bot" };

function answer(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(text),
  });
  response.end(text);
}

function refusal(code: number, description: string, parameters?: Record<string, number>) {
  return { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) };
}

/** Starts the fake on a free loopback port. */
export async function startBotApiServer(
  options: { tokens?: string[]; chats?: Record<string, BotChatInfo> } = {},
): Promise<BotApiServer> {
  const migrations = new Map<string, string>();
  let flood: { seconds: number; count: number } | null = null;
  let failures: { status: number; description: string; count: number } | null = null;
  let messageId = 0;
  const sentAt = new Map<string, number[]>();

  const state: Omit<BotApiServer, "url" | "close" | "waitForMessages"> = {
    tokens: new Set(options.tokens ?? []),
    chats: new Map(Object.entries(options.chats ?? {})),
    messages: [],
    calls: [],
    updates: [],
    migrate: (from, to) => void migrations.set(from, to),
    flood: (seconds, count = 1) => {
      flood = { seconds, count };
    },
    failNext: (status, description, count = 1) => {
      failures = { status, description, count };
    },
    delayMs: 0,
    enforceLimits: false,
  };

  /** Whether one more message now would break a documented rate, and how long to wait if so. */
  const overLimit = (token: string, chatId: string, isGroup: boolean, now: number): number | null => {
    const windows: Array<[string, number, number]> = [
      [`bot:${token}`, 1000, 30],
      [`chat:${token}:${chatId}`, 1000, 1],
    ];
    if (isGroup) windows.push([`group:${token}:${chatId}`, 60_000, 20]);
    for (const [key, span, limit] of windows) {
      const recent = (sentAt.get(key) ?? []).filter((at) => now - at < span);
      sentAt.set(key, recent);
      // A little slack: "we may allow short bursts", and our clock is not theirs.
      if (recent.length >= limit + (span === 1000 ? 1 : 0))
        return Math.ceil((span - (now - (recent[0] ?? now))) / 1000);
    }
    for (const [key] of windows) sentAt.get(key)?.push(now);
    return null;
  };

  const handle = (
    method: string,
    token: string,
    params: Record<string, unknown>,
    response: http.ServerResponse,
  ) => {
    const send = (status: number, body: unknown) => {
      state.calls.push({ method, status });
      answer(response, status, body);
    };
    if (failures && failures.count > 0) {
      failures.count -= 1;
      send(failures.status, refusal(failures.status, failures.description));
      return;
    }
    if (!state.tokens.has(token)) return send(401, refusal(401, "Unauthorized"));
    if (method === "getUpdates") return send(200, { ok: true, result: state.updates });
    if (method === "getMe") return send(200, { ok: true, result: BOT_USER });
    if (method !== "sendMessage") return send(404, refusal(404, "Not Found"));
    const chatId = String(params.chat_id ?? "");
    const text = typeof params.text === "string" ? params.text : "";
    if (flood && flood.count > 0) {
      flood.count -= 1;
      const seconds = flood.seconds;
      return send(429, refusal(429, `Too Many Requests: retry after ${seconds}`, { retry_after: seconds }));
    }
    const movedTo = migrations.get(chatId);
    if (movedTo) {
      return send(
        400,
        refusal(400, "Bad Request: group chat was upgraded to a supergroup chat", {
          migrate_to_chat_id: Number(movedTo),
        }),
      );
    }
    const chat = state.chats.get(chatId);
    if (!chat) return send(400, refusal(400, "Bad Request: chat not found"));
    if (text.length === 0) return send(400, refusal(400, "Bad Request: message text is empty"));
    if (text.length > 4096) return send(400, refusal(400, "Bad Request: message is too long"));
    const now = Date.now();
    if (state.enforceLimits) {
      const wait = overLimit(token, chatId, chat.type !== "private", now);
      if (wait !== null)
        return send(429, refusal(429, `Too Many Requests: retry after ${wait}`, { retry_after: wait }));
    }
    messageId += 1;
    state.messages.push({
      token,
      chatId,
      text,
      messageThreadId: typeof params.message_thread_id === "number" ? params.message_thread_id : null,
      disableNotification: params.disable_notification === true,
      protectContent: params.protect_content === true,
      at: now,
    });
    return send(200, {
      ok: true,
      result: {
        message_id: messageId,
        from: BOT_USER,
        chat: { id: Number(chatId), type: chat.type, title: chat.title },
        date: Math.floor(now / 1000),
        text,
      },
    });
  };

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(request.url ?? "");
      const respond = () => {
        if (!match) return answer(response, 404, refusal(404, "Not Found"));
        let params: Record<string, unknown> = {};
        try {
          params = chunks.length
            ? (JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>)
            : {};
        } catch {
          return answer(response, 400, refusal(400, "Bad Request: can't parse JSON"));
        }
        handle(match[2] ?? "", decodeURIComponent(match[1] ?? ""), params, response);
      };
      if (state.delayMs > 0) setTimeout(respond, state.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const fake = state as BotApiServer;
  fake.url = `http://127.0.0.1:${port}`;
  fake.waitForMessages = async (count, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (fake.messages.length < count) {
      if (Date.now() > deadline)
        throw new Error(`${fake.messages.length} of ${count} Telegram messages arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return fake.messages;
  };
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** An update as getUpdates answers it: a person (or group) wrote to the bot. */
export function botUpdate(
  updateId: number,
  chat: { id: number; type: string; title?: string; first_name?: string; username?: string },
  text = "/start",
) {
  return {
    update_id: updateId,
    message: {
      message_id: updateId,
      from: { id: Math.abs(chat.id), is_bot: false, first_name: "Tester" },
      chat,
      date: 1_700_000_000,
      text,
    },
  };
}
