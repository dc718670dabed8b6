// History benchmark (issue 18): 30 days of routers reporting once a minute (43,200 samples a metric
// each) on PostgreSQL. The device page's history answer, p50/p99, read from raw samples only and
// from the hourly rollups the job keeps; the hourly job's time; the history tables' size per router
// and month, and what that makes for 100,000 routers under the default retention; the charts' render
// time in Chromium.
// npm run bench:history -w bench   (BENCH_ROUTERS BENCH_DAYS BENCH_QUERIES BENCH_BROWSER=0 BENCH_DATABASE_URL)
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { DEFAULT_DOMAIN_SETTINGS, DEFAULT_POLICY, type HistoryRange } from "@cellfleet/contract";
import { sql } from "kysely";
import pg from "pg";
import { chromium } from "playwright-core";
import { buildApp } from "../apps/server/src/app";
import { maintainHistory } from "../apps/server/src/modules/insight/history.jobs";
import { readSignalHistory } from "../apps/server/src/modules/insight/history.service";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import type { SessionContext } from "../apps/server/src/platform/auth/session-guard";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import type { AppContext } from "../apps/server/src/platform/context";
import { openDatabase } from "../apps/server/src/platform/db/database";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/support/chromium";
import { BENCH_PG_URL } from "./bench-server";
import { percentile } from "./browser-measure";
import { ingestRouterMinutes, seedSamples } from "./history-seed";

const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 50);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const BROWSER = process.env.BENCH_BROWSER !== "0";
const FLEET = 100_000;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(0)} GiB`;

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: BENCH_PG_URL });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

const name = `cf_historybench_${randomUUID().slice(0, 8)}`;
await admin(`create database "${name}"`);
const url = new URL(BENCH_PG_URL);
url.pathname = `/${name}`;
const database = openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 10 });
const { db } = database;
const end = new Date();

try {
  console.log(
    `history benchmark: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}; ` + `${ROUTERS} routers × ${DAYS} days × 1 report a minute; ${QUERIES} queries a case`,
  );
  await migrateToLatest(db);
  const domainId = randomUUID();
  await db
    .insertInto("domains")
    .values({ id: domainId, name: name, settings: toJsonb(DEFAULT_DOMAIN_SETTINGS) })
    .execute();
  const deviceIds = Array.from({ length: ROUTERS }, () => randomUUID());
  await db
    .insertInto("devices")
    .values(
      deviceIds.map((id, i) => ({
        id,
        domain_id: domainId,
        ident: `HIST${String(i).padStart(6, "0")}`,
        tags: "[]",
        meta: "{}",
        last_contact: end,
      })),
    )
    .execute();
  const target = deviceIds[0] as string;

  let started = performance.now();
  await seedSamples(db, deviceIds, DAYS, end);
  await sql`vacuum analyze signal_samples`.execute(db);
  console.log(
    `seeded ${(ROUTERS * DAYS * 1440).toLocaleString("en")} samples in ${ms(performance.now() - started)}`,
  );

  const size = async (relation: string) =>
    Number(
      (
        await sql<{
          bytes: string;
        }>`select pg_total_relation_size(${relation}::regclass)::text as bytes`.execute(db)
      ).rows[0]?.bytes,
    );
  const perRouterMonth = (bytes: number, routers: number, days: number) => (bytes / routers) * (30 / days);
  const rawMonth = perRouterMonth(await size("signal_samples"), ROUTERS, DAYS);
  console.log(`signal_samples: ${mib(rawMonth)} per router per month (heap + index, one modem)`);

  const session = { domainId } as SessionContext;
  const ctxFor = (rawDays: number) =>
    ({ db, now: () => end, config: { ...loadConfig({}), historyRawDays: rawDays } }) as unknown as AppContext;
  async function timeRange(label: string, range: HistoryRange, ctx: AppContext) {
    for (let i = 0; i < 20; i++) await readSignalHistory(ctx, session, target, range);
    const times: number[] = [];
    let points = 0;
    for (let i = 0; i < QUERIES; i++) {
      const t0 = performance.now();
      const answer = await readSignalHistory(ctx, session, target, range);
      times.push(performance.now() - t0);
      points = answer.modems[0]?.t.length ?? 0;
    }
    console.log(
      `| ${label} | ${range} | ${points} | ${ms(percentile(times, 50))} | ${ms(percentile(times, 99))} |`,
    );
  }

  console.log("\n| source | range | buckets | p50 | p99 |\n| --- | --- | ---: | ---: | ---: |");
  const raw = ctxFor(DAYS);
  for (const range of ["30d", "7d", "24h"] as const) await timeRange("raw samples only", range, raw);

  started = performance.now();
  const report = await maintainHistory({
    db,
    config: { historyRetentionDays: 90, historyRawDays: 7 },
    now: () => end,
  });
  const maintainMs = performance.now() - started;
  await sql`vacuum analyze signal_samples`.execute(db);
  await sql`vacuum analyze signal_rollups`.execute(db);
  const tiered = ctxFor(7);
  for (const range of ["30d", "7d", "24h", "1h"] as const)
    await timeRange("rollups + 7 days raw (default)", range, tiered);
  console.log(
    `\nhourly job, first run over ${DAYS} days of ${ROUTERS} routers: ${ms(maintainMs)} (rolled up to ${report.rolledUpTo.toISOString()}, ${report.deletedRows.toLocaleString("en")} rows deleted)`,
  );
  const rollupMonth = perRouterMonth(await size("signal_rollups"), ROUTERS, DAYS);
  console.log(`signal_rollups: ${mib(rollupMonth)} per router per month`);

  // One router-day of all six collect types through ingest: collect_history, sim_usage and samples.
  const probe = "HISTPROBE01";
  await db
    .insertInto("devices")
    .values({ id: randomUUID(), domain_id: domainId, ident: probe, tags: "[]", meta: "{}" })
    .execute();
  const historyBefore = await size("collect_history");
  started = performance.now();
  await ingestRouterMinutes(db, probe, 1440, end);
  console.log(`one router-day of six collects a minute through ingest: ${ms(performance.now() - started)}`);
  const historyMonth = (await size("collect_history")) - historyBefore;
  // SIM usage is a row per SIM and day: weighed over every router's month, not one router's few rows.
  await sql`
    insert into sim_usage (domain_id, iccid, day, device_id, modem, slot, rx, tx, seen)
    select ${domainId}, '8970100' || lpad(r::text, 12, '0'), current_date - d, (${deviceIds}::text[])[r], '1-1', 1,
      (random() * 1e8)::bigint, (random() * 1e7)::bigint, now()
    from generate_series(1, ${ROUTERS}) as r cross join generate_series(1, ${DAYS}) as d`.execute(db);
  const usageMonth = perRouterMonth(await size("sim_usage"), ROUTERS, DAYS);
  console.log(
    `collect_history: ${mib(historyMonth * 30)} per router per month; sim_usage: ${mib(usageMonth)} per router (one SIM) per month`,
  );

  const rawDays = 7;
  const retention = 90;
  const fleet = {
    samples: (rawMonth * FLEET * rawDays) / 30,
    rollups: (rollupMonth * FLEET * retention) / 30,
    collectHistory: (historyMonth * 30 * FLEET * rawDays) / 30,
    usage: (usageMonth * FLEET * retention) / 30,
  };
  const total = fleet.samples + fleet.rollups + fleet.collectHistory + fleet.usage;
  console.log(
    `\n100,000 routers, one modem, a report a minute, defaults (raw ${rawDays} days, retention ${retention} days): ` +
      `samples ${gib(fleet.samples)}, rollups ${gib(fleet.rollups)}, sim_usage ${gib(fleet.usage)}, collect_history ${gib(fleet.collectHistory)}; ` +
      `total ${gib(total)}; without collect_history ${gib(total - fleet.collectHistory)}. A report every 5 minutes: samples and collect_history a fifth.`,
  );

  if (BROWSER) await measureCharts(domainId, target);
} finally {
  await database.close();
  // Dropped once its connections are gone: forcing them closed would error in a pool still ending.
  for (let i = 0; i < 50; i++) {
    const client = new pg.Client({ connectionString: BENCH_PG_URL });
    await client.connect();
    const left = await client
      .query("select count(*)::int as n from pg_stat_activity where datname = $1", [name])
      .finally(() => client.end());
    if (left.rows[0]?.n === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await admin(`drop database "${name}" with (force)`);
}

/** Signs an admin in through the console and times the charts of each range from answer to last drawn chart. */
async function measureCharts(domainId: string, deviceId: string): Promise<void> {
  const username = `bench_${domainId.slice(0, 8)}`;
  const password = `Bench-${randomUUID()}`;
  if (
    !(await db.selectFrom("security_policies").select("id").where("is_default", "=", true).executeTakeFirst())
  ) {
    await db
      .insertInto("security_policies")
      .values({
        ...DEFAULT_POLICY,
        id: randomUUID(),
        domain_id: null,
        is_default: true,
        forbidden_sequences: toJsonb([]),
        forbidden_phrases: toJsonb([]),
      })
      .execute();
  }
  await db
    .insertInto("users")
    .values({
      id: randomUUID(),
      domain_id: domainId,
      username,
      role: 2,
      plugins: toJsonb([]),
      password_hash: await hashPassword(password),
      password_changed_at: new Date(),
    })
    .execute();
  const app = await buildApp({
    config: { ...loadConfig({ LOG_LEVEL: "silent" }), loginRateLimit: 1_000_000 },
    database,
    bus: createInProcessBus(),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([
      { name: "locale", value: "en", url: base },
      { name: "version", value: "1", url: base },
    ]);
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel(/username/i).fill(username);
    await page.getByLabel(/^password/i).fill(password);
    await page.getByRole("button", { name: /^sign in$/i }).click();
    await page.waitForURL(/\/dashboard$/);
    await page.goto(`${base}/device/${deviceId}`);
    await page.getByTestId("signal-charts").waitFor({ timeout: 30_000 });
    const results: Record<string, number[]> = {};
    for (let round = 0; round < 6; round++) {
      for (const range of ["30d", "7d", "24h"] as const) {
        const before = await page.evaluate(
          () => performance.getEntriesByName("cellfleet:signal-charts").length,
        );
        await page.getByTestId(`range-${range}`).click();
        await page.waitForFunction(
          (n) => performance.getEntriesByName("cellfleet:signal-charts").length > n,
          before,
        );
        const duration = await page.evaluate(
          () => performance.getEntriesByName("cellfleet:signal-charts").at(-1)?.duration ?? 0,
        );
        if (round > 0) results[range] = [...(results[range] ?? []), duration];
      }
    }
    console.log("\n| range | charts | render p50 | max |\n| --- | ---: | ---: | ---: |");
    const canvases = await page.locator('[data-testid="signal-charts"] canvas').count();
    for (const [range, list] of Object.entries(results)) {
      console.log(`| ${range} | ${canvases} | ${ms(percentile(list, 50))} | ${ms(Math.max(...list))} |`);
    }
  } finally {
    await browser.close();
    await app.close();
  }
}
