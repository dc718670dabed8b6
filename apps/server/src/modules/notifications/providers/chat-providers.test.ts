import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotApiServer, botUpdate, startBotApiServer } from "../../../test/bot-api-server";
import { type ChatWebhookServer, startChatWebhookServer } from "../../../test/chat-webhook-server";
import { providerRefusal } from "../notifications.test-support";
import { refusalOf } from "./address-guard";
import type { ProviderOptions } from "./provider";
import { findBotChats, sendTelegram } from "./telegram";
import { sendWebhook, webhookBody } from "./webhook";

// The Telegram and webhook-chat clients against loopback servers that answer as the Bot API and
// the chats' incoming webhooks document, refusals, rate limits and timeouts included.

const TOKEN = "123456789:AAH-test_token_for_the_loopback_bot_api";
let bot: BotApiServer;
let chat: ChatWebhookServer;
let options: ProviderOptions;

beforeAll(async () => {
  bot = await startBotApiServer({
    tokens: [TOKEN],
    chats: { "1001": { type: "private", title: "Olga" }, "-100777": { type: "supergroup", title: "NOC" } },
  });
  chat = await startChatWebhookServer();
  options = { telegramApiUrl: bot.url, webhookAllowPrivate: true };
});
afterAll(async () => {
  await bot.close();
  await chat.close();
});

const telegram = (chatId: string, extra: Partial<Parameters<typeof sendTelegram>[0]> = {}) => ({
  chat_id: chatId,
  message_thread_id: null,
  silent: false,
  protect_content: false,
  ...extra,
});

describe("Telegram", () => {
  it("sends with the thread, silence and protection asked for", async () => {
    const sent = await sendTelegram(
      telegram("-100777", { message_thread_id: 42, silent: true, protect_content: true }),
      TOKEN,
      { title: "t", text: "Router R1 is critical" },
      options,
    );
    expect(sent.answer).toMatch(/^ok, message_id \d+$/);
    expect(bot.messages.at(-1)).toMatchObject({
      chatId: "-100777",
      text: "Router R1 is critical",
      messageThreadId: 42,
      disableNotification: true,
      protectContent: true,
    });
  });

  it("says 'chat not found' and 'invalid token' as the spec's reasons, never showing the token", async () => {
    const missing = await providerRefusal(
      sendTelegram(telegram("555"), TOKEN, { title: "", text: "x" }, options),
    );
    expect(missing.reason).toBe("chat_not_found");
    expect(missing.message).toBe("400 Bad Request: chat not found");
    const badToken = "99:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    const unauthorized = await providerRefusal(
      sendTelegram(telegram("1001"), badToken, { title: "", text: "x" }, options),
    );
    expect(unauthorized.reason).toBe("invalid_token");
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.message).not.toContain(badToken);
  });

  it("keeps a 429's retry_after for the next attempt", async () => {
    bot.flood(7);
    const flooded = await providerRefusal(
      sendTelegram(telegram("1001"), TOKEN, { title: "", text: "x" }, options),
    );
    expect(flooded.statusCode).toBe(429);
    expect(flooded.retryAfterMs).toBe(7000);
    expect(flooded.message).toContain("retry after 7");
  });

  it("follows a group that became a supergroup to its new id and stores it", async () => {
    bot.migrate("-4242", "-100777");
    const moved: string[] = [];
    const sent = await sendTelegram(
      telegram("-4242"),
      TOKEN,
      { title: "", text: "moved" },
      {
        ...options,
        onChatMigrated: async (id) => void moved.push(id),
      },
    );
    expect(moved).toEqual(["-100777"]);
    expect(sent.answer).toContain("the group moved to -100777");
    expect(bot.messages.at(-1)).toMatchObject({ chatId: "-100777", text: "moved" });
  });

  it("gives up on an API that does not answer in time, naming no URL", async () => {
    bot.delayMs = 500;
    try {
      const slow = await providerRefusal(
        sendTelegram(
          telegram("1001"),
          TOKEN,
          { title: "", text: "x" },
          { ...options, timeouts: { httpMs: 100 } },
        ),
      );
      expect(slow.message).toMatch(/ETIMEDOUT/);
      expect(slow.message).not.toContain(TOKEN);
    } finally {
      bot.delayMs = 0;
    }
  });

  it("answers an unreachable API as an error without the token", async () => {
    const unreachable = await providerRefusal(
      sendTelegram(
        telegram("1001"),
        TOKEN,
        { title: "", text: "x" },
        { ...options, telegramApiUrl: "http://127.0.0.1:9" },
      ),
    );
    expect(unreachable.reason).toBe("error");
    expect(unreachable.message).toMatch(/ECONNREFUSED/);
    expect(unreachable.message).not.toContain(TOKEN);
  });

  it("looks up the chats that wrote to the bot, and finds none when nobody did", async () => {
    bot.updates.splice(0);
    expect(await findBotChats(TOKEN, options)).toEqual([]);
    bot.updates.push(
      botUpdate(1, { id: 1001, type: "private", first_name: "Olga", username: "olga" }),
      botUpdate(2, { id: -100777, type: "supergroup", title: "NOC" }),
      botUpdate(3, { id: 1001, type: "private", first_name: "Olga", username: "olga" }, "again"),
    );
    expect(await findBotChats(TOKEN, options)).toEqual([
      { id: "1001", type: "private", title: "Olga (@olga)" },
      { id: "-100777", type: "supergroup", title: "NOC" },
    ]);
  });

  it("shows a bot with a webhook (getUpdates 409) in Telegram's words", async () => {
    bot.failNext(
      409,
      "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
    );
    const conflict = await providerRefusal(findBotChats(TOKEN, options));
    expect(conflict.reason).toBe("error");
    expect(conflict.message).toContain("Conflict: can't use getUpdates");
  });
});

describe("webhook chats", () => {
  it("writes each chat's incoming-webhook format", () => {
    expect(webhookBody("slack", "Cellfleet", "R1 <critical> & more")).toEqual({
      text: "R1 &lt;critical&gt; &amp; more",
      username: "Cellfleet",
    });
    expect(webhookBody("mattermost", "Cellfleet", "R1 <critical>")).toEqual({
      text: "R1 <critical>",
      username: "Cellfleet",
    });
    expect(webhookBody("rocketchat", "Cellfleet", "R1")).toEqual({ text: "R1", alias: "Cellfleet" });
    expect(webhookBody("slack", " ", "R1")).toEqual({ text: "R1" });
  });

  it("posts to Slack, Mattermost and Rocket.Chat and reads their answers", async () => {
    for (const format of ["slack", "mattermost", "rocketchat"] as const) {
      const url = `${chat.url}/hooks/${format === "rocketchat" ? "rocket" : format}-secret-key`;
      const sent = await sendWebhook(
        { format, display_name: "Bot" },
        url,
        { title: "", text: "hello" },
        options,
      );
      expect(sent.statusCode).toBe(200);
      expect(sent.answer).toBe(format === "rocketchat" ? '{"success":true}' : "ok");
    }
    expect(chat.posts.map((post) => post.body.text)).toEqual(["hello", "hello", "hello"]);
  });

  it("keeps Retry-After of a 429 and shows a refusal in the chat's words without the URL", async () => {
    const url = `${chat.url}/hooks/slack-secret-key`;
    chat.failNext(429, "rate_limited", { "Retry-After": "3" });
    const limited = await providerRefusal(
      sendWebhook({ format: "slack", display_name: "" }, url, { title: "", text: "x" }, options),
    );
    expect(limited.retryAfterMs).toBe(3000);
    chat.failNext(404, "channel_not_found");
    const gone = await providerRefusal(
      sendWebhook({ format: "slack", display_name: "" }, url, { title: "", text: "x" }, options),
    );
    expect(gone.message).toBe("404 channel_not_found");
    chat.failNext(
      400,
      '{"id":"web.incoming_webhook.text.app_error","message":"No text specified","status_code":400}',
    );
    const mattermost = await providerRefusal(
      sendWebhook({ format: "mattermost", display_name: "" }, url, { title: "", text: "x" }, options),
    );
    expect(mattermost.message).toBe("400 No text specified");
    chat.failNext(500, `failed posting to ${url}`);
    const echoed = await providerRefusal(
      sendWebhook({ format: "slack", display_name: "" }, url, { title: "", text: "x" }, options),
    );
    expect(echoed.message).not.toContain("slack-secret-key");
  });

  it("refuses loopback, private and metadata addresses unless private ones are allowed", async () => {
    const url = `${chat.url}/hooks/slack-secret-key`;
    const guarded = { ...options, webhookAllowPrivate: false };
    const loopback = await providerRefusal(
      sendWebhook({ format: "slack", display_name: "" }, url, { title: "", text: "x" }, guarded),
    );
    expect(loopback.reason).toBe("bad_configuration");
    expect(loopback.message).toContain("loopback, link-local or private");
    const byName = url.replace("127.0.0.1", "localhost");
    const named = await providerRefusal(
      sendWebhook({ format: "slack", display_name: "" }, byName, { title: "", text: "x" }, guarded),
    );
    expect(named.reason).toBe("bad_configuration");
    const metadata = await providerRefusal(
      sendWebhook(
        { format: "slack", display_name: "" },
        "http://169.254.169.254/latest/meta-data",
        { title: "", text: "x" },
        options,
      ),
    );
    expect(metadata.message).toContain("metadata");
    expect(chat.posts.filter((post) => post.body.text === "x")).toHaveLength(0);
  });

  it("classifies addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.1.1",
      "::1",
      "fd12::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "100.64.0.1",
      "0.0.0.0",
    ]) {
      expect(refusalOf(address, false), address).not.toBeNull();
      expect(refusalOf(address, true), address).toBeNull();
    }
    for (const address of ["169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254"]) {
      expect(refusalOf(address, true), address).toContain("metadata");
    }
    for (const address of ["8.8.8.8", "149.154.167.220", "2001:4860:4860::8888"]) {
      expect(refusalOf(address, false), address).toBeNull();
    }
  });
});
