import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { openTestSocket } from "../../test/socket-client";
import { NOTIFY_SEND_JOB } from "./engine/queue-message";
import {
  BOT_TOKEN,
  call,
  createRule,
  createTelegram,
  type NotifyTest,
  setContact,
  settle,
  startNotifyTest,
  sweep,
  withoutPlugins,
} from "./notifications.test-support";

// Delivery through the outbox: each attempt logged with the provider's answer, retries with
// backoff, a 429's retry_after honoured, a dead letter after the last attempt and a person's
// resend, a provider failing repeatedly shown unhealthy, a group followed to its supergroup, and
// the in-app notifications on POST /api/notifications/news and the socket.

let n: NotifyTest;
let domainId: string;
let admin: string;
let adminUser: Awaited<ReturnType<typeof buildUser>>;
let operator: string;
let operatorUser: Awaited<ReturnType<typeof buildUser>>;
let chatId: string;
let nextChat = 9000;

beforeAll(async () => {
  n = await startNotifyTest();
  await n.t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await n.close();
});
beforeEach(async () => {
  domainId = (await buildDomain(n.t)).id;
  adminUser = await buildUser(n.t, { role: 2, domainId });
  admin = await signIn(n.t.app, adminUser);
  operatorUser = await buildUser(n.t, { role: 4, domainId });
  operator = await signIn(n.t.app, operatorUser);
  chatId = String(nextChat++);
  n.bot.chats.set(chatId, { type: "private", title: `Chat ${chatId}` });
});

const sent = () => n.bot.messages.filter((message) => message.chatId === chatId);

/** A device_status rule through a new provider, and a router of the domain going critical. */
async function criticalRouter(providerExtra: object = {}) {
  const transportId = await createTelegram(n.t.app, admin, { chat_id: chatId, ...providerExtra });
  await createRule(n.t.app, admin, { monitor: { name: "device_status" }, transport_id: transportId });
  const device = await buildDevice(n.t, domainId, { last_status: "online" });
  await setContact(n.t, device.id, 120);
  await sweep(n.t);
  return { transportId, device };
}

async function deliveries(token = admin) {
  const answer = await call(n.t.app, token, "/api/notifications/deliveries", {});
  expect(answer.status).toBe(200);
  return answer.body.items as Array<
    Record<string, unknown> & { attempt_log: Array<Record<string, unknown>> }
  >;
}

async function sendJob() {
  return n.t.db
    .selectFrom("jobs")
    .selectAll()
    .where("kind", "=", NOTIFY_SEND_JOB)
    .where("domain_id", "=", domainId)
    .orderBy("create_time", "desc")
    .executeTakeFirstOrThrow();
}

describe("the delivery log", () => {
  it("shows a sent message with its attempt and the provider's answer", async () => {
    await criticalRouter();
    await settle(n.t);
    expect(sent()).toHaveLength(1);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      state: "sent",
      kind: "incidents",
      attempts: 1,
      max_attempts: 8,
      sent_time: expect.any(Number),
    });
    expect(delivery?.attempt_log).toEqual([
      expect.objectContaining({
        attempt: 1,
        outcome: "sent",
        status_code: 200,
        answer: expect.stringMatching(/^ok, message_id \d+$/),
      }),
    ]);
    expect(await deliveries(operator)).toHaveLength(1);
  });

  it("retries a failing provider with backoff, logs each attempt, and sends once it answers", async () => {
    n.bot.failNext(502, "Bad Gateway", 2);
    await criticalRouter();
    await settle(n.t);
    let [delivery] = await deliveries();
    expect(delivery).toMatchObject({
      state: "retrying",
      attempts: 1,
      last_answer: "502 Bad Gateway",
      next_attempt_time: expect.any(Number),
    });
    const job = await sendJob();
    // Equal jitter: the first retry comes 5 to 10 s after the failure.
    expect(job.run_at.getTime() - n.t.clock.now().getTime()).toBeGreaterThanOrEqual(5000);
    expect(job.run_at.getTime() - n.t.clock.now().getTime()).toBeLessThanOrEqual(10_000);
    await settle(n.t, 10_000);
    await settle(n.t, 20_000);
    [delivery] = await deliveries();
    expect(delivery).toMatchObject({ state: "sent", attempts: 3 });
    expect(delivery?.attempt_log.map((attempt) => attempt.outcome)).toEqual(["failed", "failed", "sent"]);
    expect(sent()).toHaveLength(1);
  });

  it("honours a 429's retry_after for the next attempt", async () => {
    n.bot.flood(42);
    await criticalRouter();
    await settle(n.t);
    const [delivery] = await deliveries();
    expect(delivery).toMatchObject({ state: "retrying" });
    expect(delivery?.attempt_log[0]).toMatchObject({ outcome: "retry_after", status_code: 429 });
    const job = await sendJob();
    expect(job.run_at.getTime() - n.t.clock.now().getTime()).toBe(42_000);
    await settle(n.t, 30_000);
    expect(sent()).toHaveLength(0);
    await settle(n.t, 12_000);
    expect(sent()).toHaveLength(1);
  });

  it("makes a dead letter after the last attempt, shows the provider unhealthy, and resends on a person's word", async () => {
    const { transportId } = await criticalRouter({ bot_token: "55:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" });
    await settle(n.t);
    for (let attempt = 0; attempt < 8; attempt += 1) await settle(n.t, 31 * 60_000);
    // Hours went by: the sessions ended for inactivity.
    admin = await signIn(n.t.app, adminUser);
    operator = await signIn(n.t.app, operatorUser);
    const [dead] = await deliveries();
    expect(dead).toMatchObject({
      state: "failed",
      attempts: 8,
      last_answer: "401 Unauthorized",
      next_attempt_time: null,
    });
    const provider = await call(n.t.app, admin, `/api/notifications/transport/${transportId}`);
    expect(provider.body.health).toMatchObject({
      healthy: false,
      failures: 8,
      last_error: "401 Unauthorized",
    });
    // The token is fixed, and the message sent again.
    const fixed = await call(
      n.t.app,
      admin,
      `/api/notifications/transport/${transportId}`,
      {
        type: "telegram",
        name: provider.body.name,
        chat_id: chatId,
        bot_token: BOT_TOKEN,
      },
      "PUT",
    );
    expect(fixed.status).toBe(200);
    expect((await call(n.t.app, operator, `/api/notifications/delivery/${dead?._id}/resend`)).status).toBe(
      403,
    );
    const resent = await call(n.t.app, admin, `/api/notifications/delivery/${dead?._id}/resend`);
    expect(resent.body.delivery).toMatchObject({ state: "queued" });
    await settle(n.t);
    const [again] = await deliveries();
    expect(again).toMatchObject({ state: "sent", attempts: 9 });
    expect(again?.attempt_log).toHaveLength(9);
    expect(sent()).toHaveLength(1);
    const healthy = await call(n.t.app, admin, `/api/notifications/transport/${transportId}`);
    expect(healthy.body.health).toMatchObject({ healthy: true, failures: 0 });
    const twice = await call(n.t.app, admin, `/api/notifications/delivery/${dead?._id}/resend`);
    expect(twice.status).toBe(200);
    const busy = await call(n.t.app, admin, `/api/notifications/delivery/${dead?._id}/resend`);
    expect(busy.body.code).toBe("BAD_REQUEST");
    await settle(n.t);
  });

  it("follows a group that became a supergroup and stores its new chat id", async () => {
    const group = `-${nextChat++}`;
    const supergroup = `-100${nextChat++}`;
    n.bot.chats.set(supergroup, { type: "supergroup", title: "NOC" });
    n.bot.migrate(group, supergroup);
    const { transportId } = await criticalRouter({ chat_id: group });
    await settle(n.t);
    expect(n.bot.messages.filter((message) => message.chatId === supergroup)).toHaveLength(1);
    const provider = await call(n.t.app, admin, `/api/notifications/transport/${transportId}`);
    expect(provider.body.telegram.chat_id).toBe(supergroup);
  });
});

/** The next message of a type, skipping others. */
async function typed(socket: Awaited<ReturnType<typeof openTestSocket>>, type: string): Promise<unknown> {
  for (;;) {
    const message = (await socket.nextMessage()) as { type: string };
    if (message.type === type) return message;
  }
}

/** The types of every message that arrives within a short while. */
async function drain(socket: Awaited<ReturnType<typeof openTestSocket>>): Promise<string[]> {
  const types: string[] = [];
  for (;;) {
    try {
      types.push(((await socket.nextMessage(300)) as { type: string }).type);
    } catch {
      return types;
    }
  }
}

describe("in-app notifications", () => {
  it("lists new items, counts the unseen, and pushes them to people with the plugin", async () => {
    const { port } = n.t.app.server.address() as AddressInfo;
    const socket = await openTestSocket(`ws://127.0.0.1:${port}/api/ws/`);
    socket.sendJson({ token: admin });
    expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
    const bare = await withoutPlugins(n.t, await buildUser(n.t, { role: 2, domainId }));
    const blind = await openTestSocket(`ws://127.0.0.1:${port}/api/ws/`);
    blind.sendJson({ token: await signIn(n.t.app, bare) });
    expect(await blind.nextMessage()).toMatchObject({ type: "ready" });

    const { device } = await criticalRouter();
    await settle(n.t);
    const pushed = (await typed(socket, "notifications")) as {
      content: Array<{ title: string; level: string }>;
    };
    expect(pushed.content[0]).toMatchObject({ level: "error", title: expect.stringContaining(device.ident) });
    // The sweep's devices message reaches both sockets; the notification only the one with the plugin.
    const seenByBlind = await drain(blind);
    expect(seenByBlind).toContain("devices");
    expect(seenByBlind).not.toContain("notifications");

    const news = await call(n.t.app, operator, "/api/notifications/news");
    expect(news.body).toMatchObject({ unseen: 1, seen_until: null });
    expect(news.body.items[0]).toMatchObject({ level: "error", rule: { name: expect.any(String) } });
    const seen = await call(n.t.app, operator, "/api/notifications/news/seen", {});
    expect(seen.body).toMatchObject({ unseen: 0, seen_until: expect.any(Number) });
    socket.ws.terminate();
    blind.ws.terminate();
  });
});
