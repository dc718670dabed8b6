// 10,000 routers going critical at once (issue 15): how fast the notifications go out through each
// provider, whether they stay within its documented rate limits, and when the last one is sent.
// The real app (rules, incidents, flush, pacing, send jobs, dispatcher) on PostgreSQL or PGlite;
// providers are loopback servers: a Bot API that answers 429 past Telegram's limits, an incoming-
// webhook chat server, and a real SMTP server. Figures and how to read them: bench/README.md.

import { randomUUID } from "node:crypto";
import { loadavg } from "node:os";
import { SMTPServer } from "smtp-server";
import { buildApp } from "../apps/server/src/app";
import { runStatusSweep } from "../apps/server/src/modules/devices-status/status-sweep.service";
import { sealSecret } from "../apps/server/src/modules/notifications/transports.mapper";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { loadPlatformSecrets } from "../apps/server/src/platform/secrets";
import { startBotApiServer } from "../apps/server/src/test/bot-api-server";
import { startChatWebhookServer } from "../apps/server/src/test/chat-webhook-server";
import { openBenchStore } from "./bench-store";

const DOMAINS = Number(process.env.BENCH_DOMAINS ?? 100);
const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 10_000);
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";
const BOT_TOKEN = "700000001:AAH-cellfleet_notification_benchmark_token";

/** The most arrivals in any one-second window, overall and per key. */
function peakPerSecond(times: readonly number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= 1000) start += 1;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

function peakPerKey(entries: ReadonlyArray<{ key: string; at: number }>): number {
  const byKey = new Map<string, number[]>();
  for (const entry of entries) byKey.set(entry.key, [...(byKey.get(entry.key) ?? []), entry.at]);
  return Math.max(0, ...[...byKey.values()].map(peakPerSecond));
}

async function main(): Promise<void> {
  const { database, drop } = await openBenchStore(ENGINE, "notifybench");
  const bot = await startBotApiServer({ tokens: [BOT_TOKEN] });
  bot.enforceLimits = true;
  const chat = await startChatWebhookServer();
  const mails: number[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, _session, callback) {
      stream.on("data", () => {});
      stream.on("end", () => {
        mails.push(Date.now());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const smtpPort = (smtp.server.address() as { port: number }).port;
  try {
    const db = database.db;
    await migrateToLatest(db);
    const secrets = await loadPlatformSecrets(db);
    const now = new Date();
    const perDomain = Math.ceil(ROUTERS / DOMAINS);
    const silentSince = new Date(now.getTime() - 2 * 3600_000);
    for (let d = 0; d < DOMAINS; d += 1) {
      const domainId = randomUUID();
      await db
        .insertInto("domains")
        .values({ id: domainId, name: `bench${d}` })
        .execute();
      const devices = Array.from({ length: Math.min(perDomain, ROUTERS - d * perDomain) }, (_, i) => ({
        id: randomUUID(),
        domain_id: domainId,
        ident: `B${String(d).padStart(3, "0")}R${String(i).padStart(5, "0")}`,
        tags: toJsonb([]),
        meta: toJsonb({}),
        last_contact: silentSince,
        last_status: "online",
      }));
      for (let i = 0; i < devices.length; i += 1000)
        await db
          .insertInto("devices")
          .values(devices.slice(i, i + 1000))
          .execute();
      const chatId = String(-1_000_000_000 - d);
      bot.chats.set(chatId, { type: "supergroup", title: `NOC ${d}` });
      const transports: Array<{
        type: "telegram" | "webhook" | "smtp";
        settings: object;
        secret: Record<string, string>;
      }> = [
        {
          type: "telegram" as const,
          settings: { chat_id: chatId, message_thread_id: null, silent: false, protect_content: false },
          secret: { token: BOT_TOKEN },
        },
        {
          type: "webhook" as const,
          settings: { format: "mattermost", display_name: "Cellfleet", host: "127.0.0.1" },
          secret: { webhook_url: `${chat.url}/hooks/domain-${d}` },
        },
        {
          type: "smtp" as const,
          settings: {
            host: "127.0.0.1",
            port: smtpPort,
            tls: false,
            ssl: false,
            username: "",
            from: "cf@example.com",
            to: `noc${d}@example.com`,
            cc: "",
            bcc: "",
            subject: "",
          },
          secret: { password: "" },
        },
      ];
      for (const transport of transports) {
        const transportId = randomUUID();
        await db
          .insertInto("notification_transports")
          .values({
            id: transportId,
            domain_id: domainId,
            name: transport.type,
            type: transport.type,
            settings: toJsonb(transport.settings),
            sealed: sealSecret(secrets, transport.secret),
            language: "en",
            create_time: now,
            update_time: now,
          })
          .execute();
        await db
          .insertInto("notification_rules")
          .values({
            id: randomUUID(),
            domain_id: domainId,
            name: `Critical via ${transport.type}`,
            monitor: "device_status",
            variables: toJsonb({ status: "critical" }),
            filter_tags: toJsonb([]),
            filter_levels: toJsonb([]),
            transport_id: transportId,
            tolerance_minutes: 0,
            create_time: now,
            update_time: now,
          })
          .execute();
      }
    }
    const config = {
      ...loadConfig({}),
      notifications: { telegramApiUrl: bot.url, webhookAllowPrivate: true },
    };
    const bus = createInProcessBus();
    const app = await buildApp({ config, database, bus });
    await app.ready();
    app.jobDispatcher.start();

    const load = loadavg()[0]?.toFixed(2);
    const t0 = Date.now();
    let changed = 0;
    for (;;) {
      const batch = await runStatusSweep({ db, bus, now: () => new Date(), jobs: app.jobs });
      changed += batch;
      if (batch === 0) break;
    }
    const swept = Date.now() - t0;
    const expected = DOMAINS;
    const deadline = Date.now() + 15 * 60_000;
    while (bot.messages.length < expected || chat.posts.length < expected || mails.length < expected) {
      if (Date.now() > deadline)
        throw new Error(`timed out: ${bot.messages.length} / ${chat.posts.length} / ${mails.length}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const telegram = bot.messages.map((message) => message.at);
    const report = (name: string, times: number[], perKey: number, refused: number) => {
      const first = Math.min(...times) - t0;
      const last = Math.max(...times) - t0;
      const span = (Math.max(...times) - Math.min(...times)) / 1000;
      const rate = times.length < 2 || span === 0 ? "–" : `${(times.length / span).toFixed(1)}/s`;
      console.log(
        `${name.padEnd(9)} messages ${times.length}, first ${(first / 1000).toFixed(1)} s, last ${(last / 1000).toFixed(1)} s, ` +
          `${rate}, peak ${peakPerSecond(times)} in 1 s, peak per chat/hook ${perKey} in 1 s, refused ${refused}`,
      );
    };
    console.log(
      `${ENGINE}: ${changed} routers critical in ${DOMAINS} domains (3 rules each: Telegram, webhook, SMTP); sweep ${swept} ms; load ${load}`,
    );
    report(
      "telegram",
      telegram,
      peakPerKey(bot.messages.map((m) => ({ key: m.chatId, at: m.at }))),
      bot.calls.filter((c) => c.status === 429).length,
    );
    report(
      "webhook",
      chat.posts.map((post) => post.at),
      peakPerKey(chat.posts.map((p) => ({ key: p.path, at: p.at }))),
      0,
    );
    report("smtp", mails, peakPerSecond(mails), 0);
    const lastSent = Math.max(...telegram, ...chat.posts.map((post) => post.at), ...mails) - t0;
    console.log(`time until the last message was sent: ${(lastSent / 1000).toFixed(1)} s`);
    const text = bot.messages[0]?.text ?? "";
    console.log(`a Telegram message: ${text.length} characters, first line "${text.split("\n")[0]}"`);
    await app.close();
  } finally {
    await bot.close();
    await chat.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await drop();
  }
}

await main();
