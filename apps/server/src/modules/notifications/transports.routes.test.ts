import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { botUpdate } from "../../test/bot-api-server";
import {
  BOT_TOKEN,
  call,
  createRule,
  createTelegram,
  GROUP_CHAT,
  type NotifyTest,
  PRIVATE_CHAT,
  signInPeople,
  startNotifyTest,
} from "./notifications.test-support";

// The provider routes: who may do what (spec section 6), input checks, write-only secrets, the test
// message and the chat-id lookup against the loopback Bot API.

let n: NotifyTest;
let tokens: Record<string, string> = {};

beforeAll(async () => {
  n = await startNotifyTest();
  ({ tokens } = await signInPeople(n.t));
});
afterAll(async () => {
  await n.close();
});

describe("notification providers", () => {
  it("refuses the anonymous, and lists nothing without the notification plugin", async () => {
    const anonymous = await n.t.app.inject({
      method: "POST",
      url: "/api/notifications/transports",
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
    await createTelegram(n.t.app, tokens.admin as string);
    const bare = await call(n.t.app, tokens.noPlugin as string, "/api/notifications/transports");
    expect(bare).toEqual({ status: 200, body: { items: [] } });
    const operator = await call(n.t.app, tokens.operator as string, "/api/notifications/transports");
    expect(operator.body.items.length).toBeGreaterThan(0);
  });

  it("keeps the token write-only: not in the answer, the database or the audit log", async () => {
    const id = await createTelegram(n.t.app, tokens.admin as string, {
      name: "Secret bot",
      chat_id: GROUP_CHAT,
    });
    const read = await call(n.t.app, tokens.admin as string, `/api/notifications/transport/${id}`);
    expect(read.body).toMatchObject({
      name: "Secret bot",
      type: "telegram",
      has_secret: true,
      telegram: { chat_id: GROUP_CHAT },
    });
    expect(JSON.stringify(read.body)).not.toContain(BOT_TOKEN);
    const row = await n.t.db
      .selectFrom("notification_transports")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(BOT_TOKEN);
    await n.t.app.auditLog.settle();
    const audit = await n.t.db
      .selectFrom("web_actions")
      .select("info")
      .where("action", "=", "POST_notifications")
      .execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.stringify(audit)).not.toContain(BOT_TOKEN);
  });

  it("keeps a webhook's URL secret, showing its host only", async () => {
    const url = `${n.chat.url}/hooks/secret-webhook-key`;
    const created = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/new", {
      type: "webhook",
      name: "Team chat",
      webhook_url: url,
      format: "mattermost",
      display_name: "Cellfleet",
    });
    expect(created.status).toBe(200);
    expect(created.body.webhook).toEqual({
      format: "mattermost",
      display_name: "Cellfleet",
      host: new URL(url).host,
    });
    expect(JSON.stringify(created.body)).not.toContain("secret-webhook-key");
    await n.t.app.auditLog.settle();
    const audit = await n.t.db.selectFrom("web_actions").select("info").execute();
    expect(JSON.stringify(audit)).not.toContain("secret-webhook-key");
  });

  it("lets assistants read but not change or delete providers (spec section 6)", async () => {
    const id = await createTelegram(n.t.app, tokens.admin as string);
    const create = await call(n.t.app, tokens.assistant as string, "/api/notifications/transport/new", {
      type: "telegram",
      name: "Mine",
      chat_id: PRIVATE_CHAT,
      bot_token: BOT_TOKEN,
    });
    expect(create.status).toBe(403);
    const update = await call(
      n.t.app,
      tokens.assistant as string,
      `/api/notifications/transport/${id}`,
      { type: "telegram", name: "x", chat_id: PRIVATE_CHAT },
      "PUT",
    );
    expect(update.status).toBe(403);
    const remove = await call(
      n.t.app,
      tokens.assistant as string,
      `/api/notifications/transport/${id}`,
      {},
      "DELETE",
    );
    expect(remove.status).toBe(403);
    const read = await call(n.t.app, tokens.assistant as string, `/api/notifications/transport/${id}`);
    expect(read.status).toBe(200);
  });

  it("answers another domain's provider as not found", async () => {
    const id = await createTelegram(n.t.app, tokens.admin as string);
    const other = await call(n.t.app, tokens.otherAdmin as string, `/api/notifications/transport/${id}`);
    expect(other).toMatchObject({ status: 404, body: { code: "TRANSPORT_NOT_FOUND" } });
    const remove = await call(
      n.t.app,
      tokens.otherAdmin as string,
      `/api/notifications/transport/${id}`,
      {},
      "DELETE",
    );
    expect(remove.status).toBe(404);
  });

  it("checks the fields: chat id, token, e-mails, the 'to' of non-superusers, TLS and SSL", async () => {
    const bad = async (body: object) =>
      call(n.t.app, tokens.admin as string, "/api/notifications/transport/new", body);
    expect(
      (await bad({ type: "telegram", name: "x", chat_id: "abc", bot_token: BOT_TOKEN })).body,
    ).toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("patternMismatch"),
    });
    expect(
      (await bad({ type: "telegram", name: "x", chat_id: PRIVATE_CHAT, bot_token: "nope" })).status,
    ).toBe(400);
    expect((await bad({ type: "fax", name: "x" })).status).toBe(400);
    const smtp = {
      type: "smtp",
      name: "Mail",
      host: "mail.example.com",
      port: 587,
      from: "cf@example.com",
      to: "noc@example.com",
    };
    expect((await bad({ ...smtp, cc: "not an email" })).body.message).toContain("emailListInvalid");
    expect((await bad({ ...smtp, port: 70000 })).body.message).toContain("portRange");
    expect((await bad({ ...smtp, to: "" })).body).toMatchObject({
      code: "BAD_REQUEST",
      message: "body.to: required",
    });
    expect((await bad({ ...smtp, tls: true, ssl: true })).status).toBe(400);
    expect((await bad({ type: "webhook", name: "W", webhook_url: "ftp://x" })).body.message).toContain(
      "urlInvalid",
    );
    // A superuser's mail may go to the superusers themselves.
    const root = await call(n.t.app, tokens.root as string, "/api/notifications/transport/new", {
      ...smtp,
      to: "",
    });
    expect(root.status).toBe(200);
  });

  it("refuses a taken name with TRANSPORT_CREATE_ERROR", async () => {
    await createTelegram(n.t.app, tokens.admin as string, { name: "Twin" });
    const again = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/new", {
      type: "telegram",
      name: "twin",
      chat_id: PRIVATE_CHAT,
      bot_token: BOT_TOKEN,
    });
    expect(again).toMatchObject({ status: 409, body: { code: "TRANSPORT_CREATE_ERROR" } });
  });

  it("refuses deleting a provider a rule uses (TRANSPORT_IS_USED), and deletes it once free", async () => {
    const id = await createTelegram(n.t.app, tokens.admin as string);
    const ruleId = await createRule(n.t.app, tokens.admin as string, {
      monitor: { name: "device_connected" },
      transport_id: id,
    });
    const used = await call(
      n.t.app,
      tokens.admin as string,
      `/api/notifications/transport/${id}`,
      {},
      "DELETE",
    );
    expect(used).toMatchObject({ status: 409, body: { code: "TRANSPORT_IS_USED" } });
    expect(
      (await call(n.t.app, tokens.admin as string, `/api/notifications/rule/${ruleId}`, {}, "DELETE")).status,
    ).toBe(200);
    expect(
      (await call(n.t.app, tokens.admin as string, `/api/notifications/transport/${id}`, {}, "DELETE"))
        .status,
    ).toBe(200);
  });

  it("keeps the stored token when a change leaves it out", async () => {
    const id = await createTelegram(n.t.app, tokens.admin as string, { name: "Keeper" });
    const changed = await call(
      n.t.app,
      tokens.admin as string,
      `/api/notifications/transport/${id}`,
      {
        type: "telegram",
        name: "Keeper",
        chat_id: GROUP_CHAT,
        prefix: "[NOC]",
      },
      "PUT",
    );
    expect(changed.body).toMatchObject({
      has_secret: true,
      prefix: "[NOC]",
      telegram: { chat_id: GROUP_CHAT },
    });
    const test = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/test", {
      type: "telegram",
      name: "Keeper",
      chat_id: GROUP_CHAT,
      prefix: "[NOC]",
      transport_id: id,
    });
    expect(test.body).toMatchObject({ ok: true, reason: null });
    expect(n.bot.messages.at(-1)?.text).toMatch(/^\[NOC\] /);
    const typeChange = await call(
      n.t.app,
      tokens.admin as string,
      `/api/notifications/transport/${id}`,
      {
        type: "webhook",
        name: "Keeper",
      },
      "PUT",
    );
    expect(typeChange.body.code).toBe("BAD_TYPE");
  });
});

describe("the test message and the chat-id lookup", () => {
  it("sends a test message from the form, and says why one was not sent", async () => {
    const form = {
      type: "telegram",
      name: "Form",
      chat_id: PRIVATE_CHAT,
      bot_token: BOT_TOKEN,
      language: "ru",
    };
    const sent = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/test", form);
    expect(sent.body).toMatchObject({ ok: true, reason: null });
    expect(n.bot.messages.at(-1)?.text).toContain("Это проверочное сообщение Cellfleet");
    const lost = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/test", {
      ...form,
      chat_id: "424242",
    });
    expect(lost.body).toEqual({
      ok: false,
      reason: "chat_not_found",
      description: "400 Bad Request: chat not found",
    });
    const badToken = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/test", {
      ...form,
      bot_token: "5:AAAAAAAAAAAAAAAAAAAAAAAAAA",
    });
    expect(badToken.body).toMatchObject({ ok: false, reason: "invalid_token" });
    const assistant = await call(
      n.t.app,
      tokens.assistant as string,
      "/api/notifications/transport/test",
      form,
    );
    expect(assistant.status).toBe(403);
  });

  it("looks up chats, and finds none until someone writes to the bot", async () => {
    const none = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/chats", {
      bot_token: BOT_TOKEN,
    });
    expect(none.body).toEqual({ ok: true, chats: [], reason: null, description: "" });
    n.bot.updates.push(botUpdate(10, { id: -100777, type: "supergroup", title: "NOC" }));
    const id = await createTelegram(n.t.app, tokens.admin as string);
    const found = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/chats", {
      transport_id: id,
    });
    expect(found.body.chats).toEqual([{ id: "-100777", type: "supergroup", title: "NOC" }]);
    const neither = await call(n.t.app, tokens.admin as string, "/api/notifications/transport/chats", {});
    expect(neither.status).toBe(400);
  });
});
