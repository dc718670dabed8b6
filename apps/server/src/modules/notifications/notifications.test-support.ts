import type { CreateTransport, RuleFields } from "@cellfleet/contract";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { toJsonb } from "../../platform/db/schema";
import { type BotApiServer, startBotApiServer } from "../../test/bot-api-server";
import { type ChatWebhookServer, startChatWebhookServer } from "../../test/chat-webhook-server";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import { createTestApp, type TestApp, type TestAppOptions } from "../../test/test-app";
import { runStatusSweep } from "../devices-status/status-sweep.service";
import { FLUSH_WINDOW_MS } from "./engine/flush";
import { NOTIFY_SEND_JOB } from "./engine/queue-message";
import { NOTIFY_TIMERS_JOB } from "./engine/timers";
import { ProviderError } from "./providers/provider";

// What the notification tests share: an app whose Telegram base URL is a loopback Bot API and whose
// webhooks may reach loopback, and the calls they repeat.

/** A bot token the loopback Bot API accepts. */
export const BOT_TOKEN = "123456789:AAH-cellfleet_notification_tests_token";
/** A private chat and a supergroup the loopback Bot API knows. */
export const PRIVATE_CHAT = "1001";
export const GROUP_CHAT = "-100777";

/** The app and its loopback providers. */
export interface NotifyTest {
  t: TestApp;
  bot: BotApiServer;
  chat: ChatWebhookServer;
  close(): Promise<void>;
}

/** An app pointed at a fresh loopback Bot API and chat server; jobs run when the test says. */
export async function startNotifyTest(options: TestAppOptions = {}): Promise<NotifyTest> {
  const bot = await startBotApiServer({
    tokens: [BOT_TOKEN],
    chats: {
      [PRIVATE_CHAT]: { type: "private", title: "Olga" },
      [GROUP_CHAT]: { type: "supergroup", title: "NOC" },
    },
  });
  const chat = await startChatWebhookServer();
  const t = await createTestApp({
    runJobs: false,
    ...options,
    config: {
      notifications: { telegramApiUrl: bot.url, webhookAllowPrivate: true },
      ...options.config,
    },
  });
  return {
    t,
    bot,
    chat,
    async close() {
      await t.close();
      await bot.close();
      await chat.close();
    },
  };
}

/** A POST (or other method) with the session token, answering status and JSON. */
export async function call(
  app: FastifyInstance,
  token: string,
  url: string,
  payload: unknown = {},
  method: "POST" | "PUT" | "PATCH" | "DELETE" = "POST",
) {
  const response = await app.inject({ method, url, headers: { token }, payload: payload as object });
  return { status: response.statusCode, body: response.json() };
}

/** A Telegram provider made through the API; answers its id. */
export async function createTelegram(
  app: FastifyInstance,
  token: string,
  extra: Partial<Extract<CreateTransport, { type: "telegram" }>> = {},
): Promise<string> {
  const answer = await call(app, token, "/api/notifications/transport/new", {
    type: "telegram",
    name: `Bot ${Math.random().toString(36).slice(2, 8)}`,
    chat_id: PRIVATE_CHAT,
    bot_token: BOT_TOKEN,
    language: "en",
    ...extra,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body._id as string;
}

/** A rule made through the API; answers its id. */
export async function createRule(
  app: FastifyInstance,
  token: string,
  body: Partial<RuleFields> & Pick<RuleFields, "monitor">,
): Promise<string> {
  const answer = await call(app, token, "/api/notifications/rule/new", {
    name: `Rule ${Math.random().toString(36).slice(2, 8)}`,
    ...body,
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body._id as string;
}

/**
 * Runs the jobs due now (the monitors read what happened), lets `ms` pass (one flush window by
 * default), and runs every job then due, until none is. Messages paced a few seconds apart (one a
 * second per chat) are let through too, as time would.
 */
export async function settle(t: TestApp, ms = FLUSH_WINDOW_MS): Promise<void> {
  await t.jobs.runUntilIdle();
  t.clock.advance(ms);
  await t.jobs.runUntilIdle();
  for (let round = 0; round < 50; round += 1) {
    const next = await t.db
      .selectFrom("jobs")
      .select("run_at")
      .where("kind", "=", NOTIFY_SEND_JOB)
      .where("state", "=", "queued")
      .orderBy("run_at")
      .executeTakeFirst();
    const wait = next ? next.run_at.getTime() - t.clock.now().getTime() : Number.POSITIVE_INFINITY;
    if (wait > PACED_WAIT_MS) return;
    t.clock.advance(Math.max(0, wait));
    await t.jobs.runUntilIdle();
  }
}

/**
 * Runs the timer monitors now, as their periodic job does when due (under the key `jobs.every`
 * uses, so never beside a live periodic run). Answers whether the run was done.
 */
export async function runTimers(t: TestApp): Promise<boolean> {
  const jobId = await t.app.jobs.transaction((trx) =>
    t.app.jobs.enqueue(trx, { kind: NOTIFY_TIMERS_JOB, dedupeKey: `every:${NOTIFY_TIMERS_JOB}` }),
  );
  await t.jobs.runUntilIdle();
  if (jobId === null) return false;
  const job = await t.db.selectFrom("jobs").select("state").where("id", "=", jobId).executeTakeFirst();
  return job?.state === "done";
}

/** How far ahead `settle` lets paced messages through. */
const PACED_WAIT_MS = 30_000;

/** Runs the status sweep with the app's outbox, as the device side does every 20 s. */
export async function sweep(t: TestApp): Promise<number> {
  return runStatusSweep({ db: t.db, bus: t.bus, now: t.clock.now, jobs: t.app.jobs });
}

/** Sets a device's last contact `minutesAgo` before the test clock's now. */
export async function setContact(t: TestApp, deviceId: string, minutesAgo: number): Promise<void> {
  await t.db
    .updateTable("devices")
    .set({ last_contact: new Date(t.clock.now().getTime() - minutesAgo * 60_000) })
    .where("id", "=", deviceId)
    .execute();
}

/** Sessions of a domain's admin, assistant and operator, another domain's admin, a superuser, and an admin without plugins. */
export async function signInPeople(
  t: TestApp,
): Promise<{ domainId: string; tokens: Record<string, string> }> {
  const domainId = (await buildDomain(t)).id;
  const tokens: Record<string, string> = {};
  for (const [name, role] of [
    ["admin", 2],
    ["assistant", 3],
    ["operator", 4],
  ] as const) {
    tokens[name] = await signIn(t.app, await buildUser(t, { role, domainId }));
  }
  tokens.otherAdmin = await signIn(t.app, await buildUser(t, { role: 2 }));
  tokens.root = await signIn(t.app, await buildUser(t, { role: 1 }));
  tokens.noPlugin = await signIn(t.app, await withoutPlugins(t, await buildUser(t, { role: 2, domainId })));
  return { domainId, tokens };
}

/** Takes every plugin from a user (spec §6: the notification lists are then empty). */
export async function withoutPlugins<U extends { id: string }>(t: Pick<TestApp, "db">, user: U): Promise<U> {
  await t.db
    .updateTable("users")
    .set({ plugins: toJsonb([]) })
    .where("id", "=", user.id)
    .execute();
  return user;
}

/** The ProviderError a provider call refused with (fails the test when it did not refuse). */
export async function providerRefusal(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}
