import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { createInProcessBus } from "../../platform/bus/in-process-bus";
import { type Config, loadConfig } from "../../platform/config";
import { type Database, openDatabase } from "../../platform/db/database";
import { type BotApiServer, startBotApiServer } from "../../test/bot-api-server";
import { buildDevice } from "../../test/device-factories";
import { buildDomain, buildUser, signIn } from "../../test/factories";
import type { TestApp } from "../../test/test-app";
import { createTestClock } from "../../test/test-clock";
import { createTestDatabase, type TestDatabase } from "../../test/test-db";
import { STATUS_SWEEP_JOB } from "../devices-status/status-sweep.jobs";
import { runStatusSweep } from "../devices-status/status-sweep.service";
import { NOTIFY_TIMERS_JOB } from "./engine/timers";
import { BOT_TOKEN, call, createRule, createTelegram, PRIVATE_CHAT } from "./notifications.test-support";

// Two server nodes on one database, as in production: their dispatchers claim under SKIP LOCKED,
// the timers and the status sweep run as periodic jobs. Each monitor must fire
// exactly once per incident. And a node that stops before its queued messages went out loses
// none: the next node sends them.

const clock = createTestClock();
let store: TestDatabase;
let bot: BotApiServer;
let config: Config;
const extraDatabases: Database[] = [];

beforeAll(async () => {
  store = await createTestDatabase();
  bot = await startBotApiServer({
    tokens: [BOT_TOKEN],
    chats: { [PRIVATE_CHAT]: { type: "private", title: "Olga" } },
  });
  config = {
    ...loadConfig({}),
    loginRateLimit: 10_000,
    notifications: { telegramApiUrl: bot.url, webhookAllowPrivate: true },
  };
});
afterAll(async () => {
  for (const database of extraDatabases) await database.close();
  await bot.close();
  await store.drop();
});

/** A node: its own app, bus and (on PostgreSQL) its own pool of the shared database. */
async function startNode(): Promise<FastifyInstance> {
  let database = store.database;
  if (store.url) {
    database = openDatabase({ kind: "postgres", url: store.url, maxConnections: 4 });
    extraDatabases.push(database);
  }
  const app = await buildApp({
    config,
    database,
    bus: createInProcessBus(),
    now: clock.now,
    webDistDir: "/nonexistent-cellfleet-web-dist",
    // The periodic kinds are enqueued when the test says (runSchedules), not by the dispatchers' own tick.
    jobTimings: { pollMs: 25, scheduleTickMs: 3_600_000 },
  });
  await app.ready();
  return app;
}

/** What the factories need: the shared database and clock. */
function factoryView(app: FastifyInstance): TestApp {
  return { app, db: store.database.db, clock } as unknown as TestApp;
}

/**
 * Waits for `check`, moving the test clock on by 250 ms every 50 ms of waiting. Jobs are due by the
 * test clock (a flush at the end of its window, a retry after its backoff): on a busy machine the
 * job that queues one may run only after the test's own steps moved the clock, and a clock that then
 * stood still would leave it waiting for ever (a full run once saw a message 30 s late this way).
 */
async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 50));
    clock.advance(250);
  }
}

/** Both nodes' schedule ticks at once: whether each enqueued the timer monitors' periodic job. */
async function tickTimers(nodes: FastifyInstance[]): Promise<boolean[]> {
  const enqueued = await Promise.all(nodes.map((node) => node.jobDispatcher.runSchedules()));
  return enqueued.map((kinds) => kinds.includes(NOTIFY_TIMERS_JOB));
}

describe("two nodes", () => {
  it("send each incident's messages once, and the timers fire once", { timeout: 60_000 }, async () => {
    const a = await startNode();
    const b = await startNode();
    try {
      const view = factoryView(a);
      const domainId = (await buildDomain(view)).id;
      const admin = await signIn(a, await buildUser(view, { role: 2, domainId }));
      const transportId = await createTelegram(a, admin, { chat_id: PRIVATE_CHAT });
      await createRule(a, admin, {
        name: "Status",
        monitor: { name: "device_status" },
        transport_id: transportId,
      });
      await createRule(b, admin, {
        name: "Silence",
        monitor: { name: "connect", check_delay: 30 },
        transport_id: transportId,
      });
      await createRule(a, admin, {
        name: "Digest",
        monitor: { name: "check_interval", check_delay: 1, variables: { status: "critical" } },
        transport_id: transportId,
      });
      const device = await buildDevice(view, domainId, { last_status: "online" });
      await view.db
        .updateTable("devices")
        .set({ last_contact: new Date(clock.now().getTime() - 2 * 3600_000) })
        .where("id", "=", device.id)
        .execute();
      a.jobDispatcher.start();
      b.jobDispatcher.start();

      // Both nodes' schedule ticks at once: the sweep and the timers are each enqueued by one.
      const due = (await Promise.all([a, b].map((node) => node.jobDispatcher.runSchedules()))).flat();
      expect(due.filter((kind) => kind === STATUS_SWEEP_JOB)).toHaveLength(1);
      expect(due.filter((kind) => kind === NOTIFY_TIMERS_JOB)).toHaveLength(1);
      // Let the flush window pass, with both dispatchers polling.
      for (let step = 0; step < 4; step += 1) {
        clock.advance(2000);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await waitUntil(() => bot.messages.length >= 2);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const texts = bot.messages.map((message) => message.text.split("\n")[0]);
      expect(texts.sort()).toEqual([
        expect.stringContaining(`Silence: ${device.ident}: no contact for more than 30 min`),
        expect.stringContaining(`Status: ${device.ident}: status critical`),
      ]);
      // An hour on, the check-interval digest is due: both nodes' timers look, one sends it.
      clock.advance(3600_000 + 1000);
      const later = await tickTimers([a, b]);
      expect(later.filter(Boolean)).toHaveLength(1);
      clock.advance(2000);
      await waitUntil(() => bot.messages.length >= 3);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(
        bot.messages
          .map((message) => message.text.split("\n")[0])
          .filter((line) => line.startsWith("Digest")),
      ).toEqual(["Digest: 1 devices critical or worse"]);
      expect(bot.messages).toHaveLength(3);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("loses nothing a node queued before it stopped: the next node sends it, once", {
    timeout: 60_000,
  }, async () => {
    bot.messages.splice(0);
    const a = await startNode();
    const view = factoryView(a);
    const domainId = (await buildDomain(view)).id;
    const admin = await signIn(a, await buildUser(view, { role: 2, domainId }));
    const transportId = await createTelegram(a, admin, { chat_id: PRIVATE_CHAT });
    await createRule(a, admin, {
      name: "Restart",
      monitor: { name: "device_status" },
      transport_id: transportId,
    });
    const device = await buildDevice(view, domainId, { last_status: "online" });
    await view.db
      .updateTable("devices")
      .set({ last_contact: new Date(clock.now().getTime() - 2 * 3600_000) })
      .where("id", "=", device.id)
      .execute();
    // Node A commits the status change and its outbox event, and stops before running any job.
    await runStatusSweep({ db: store.database.db, bus: createInProcessBus(), now: clock.now, jobs: a.jobs });
    await a.close();
    expect(bot.messages).toHaveLength(0);

    const b = await startNode();
    try {
      b.jobDispatcher.start();
      for (let step = 0; step < 4; step += 1) {
        clock.advance(2000);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await waitUntil(() => bot.messages.length >= 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(bot.messages.map((message) => message.text.split("\n")[0])).toEqual([
        expect.stringContaining(`Restart: ${device.ident}: status critical`),
      ]);
      const log = await call(
        b,
        await signIn(b, await buildUser(view, { role: 2, domainId })),
        "/api/notifications/deliveries",
      );
      expect(log.body.items).toHaveLength(1);
      expect(log.body.items[0]).toMatchObject({ state: "sent", attempts: 1 });
    } finally {
      await b.close();
    }
  });
});
