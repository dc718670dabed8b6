// History benchmark (issue 18): 30 days of routers reporting once a minute (43,200 samples a metric
// each) on PostgreSQL. The device page's history answer, p50/p99, as the browser asks for it: POST
// /api/device/{id}/signal over HTTP to a listening server in a child process (bench/history-server.ts),
// with the service call in this process beside it; read from raw samples only and from the hourly
// rollups the job keeps. The hourly job's time; the history tables' size per router and month, and
// what that makes for 100,000 routers under the default retention; the charts' render time in Chromium.
// npm run bench:history -w bench   (BENCH_ROUTERS BENCH_DAYS BENCH_QUERIES BENCH_BROWSER=0 BENCH_DATABASE_URL)
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEFAULT_DOMAIN_SETTINGS, DEFAULT_POLICY, type HistoryRange } from "@cellfleet/contract";
import { sql } from "kysely";
import { chromium } from "playwright-core";
import { maintainHistory } from "../apps/server/src/modules/insight/history.jobs";
import { readSignalHistory } from "../apps/server/src/modules/insight/history.service";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import type { SessionContext } from "../apps/server/src/platform/auth/session-guard";
import { loadConfig } from "../apps/server/src/platform/config";
import type { AppContext } from "../apps/server/src/platform/context";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/support/chromium";
import { openBenchStore } from "./bench-store";
import { percentile } from "./browser-measure";
import { ingestRouterMinutes, seedSamples } from "./history-seed";
import { KeepAliveClient } from "./http-load";

const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 50);
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const BROWSER = process.env.BENCH_BROWSER !== "0";
const FLEET = 100_000;
const here = path.dirname(fileURLToPath(import.meta.url));
const ms = (value: number) => `${value.toFixed(1)} ms`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(0)} GiB`;

const { database, url: databaseUrl, drop } = await openBenchStore("postgres", "historybench");
if (!databaseUrl) throw new Error("the history bench runs on PostgreSQL only");
const url = new URL(databaseUrl);
const name = decodeURIComponent(url.pathname.slice(1));
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

  const account = await createAdmin(domainId);
  const session = { domainId } as SessionContext;
  const ctxFor = (rawDays: number) =>
    ({ db, now: () => end, config: { ...loadConfig({}), historyRawDays: rawDays } }) as unknown as AppContext;

  /** The HTTP answer's p50/p99 (as the browser asks) beside the service call's, for one range. */
  async function timeRange(label: string, range: HistoryRange, server: HistoryServer, ctx: AppContext) {
    const route = `/api/device/${target}/signal`;
    const headers = { token: server.token };
    const body = { range, token: server.token };
    const client = new KeepAliveClient(server.baseUrl);
    const http: number[] = [];
    const service: number[] = [];
    try {
      for (let i = 0; i < 20; i++) {
        const answer = await client.postJson(route, headers, body);
        if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
        await readSignalHistory(ctx, session, target, range);
      }
      for (let i = 0; i < QUERIES; i++) {
        http.push((await client.postJson(route, headers, body)).totalMs);
        const t0 = performance.now();
        await readSignalHistory(ctx, session, target, range);
        service.push(performance.now() - t0);
      }
    } finally {
      client.close();
    }
    const answer = await fetch(`${server.baseUrl}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    const text = await answer.text();
    const points = (JSON.parse(text) as { modems: { t: number[] }[] }).modems[0]?.t.length ?? 0;
    console.log(
      `| ${label} | ${range} | ${points} | ${(text.length / 1024).toFixed(1)} KiB | ${ms(percentile(http, 50))} | ${ms(percentile(http, 99))} | ${ms(percentile(service, 50))} | ${ms(percentile(service, 99))} |`,
    );
  }

  console.log(
    `\nload ${loadavg()[0]?.toFixed(2)} before the answers\n` +
      "| source | range | buckets | answer | HTTP p50 | HTTP p99 | service p50 | service p99 |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  let server = await startHistoryServer(DAYS, account);
  try {
    for (const range of ["30d", "7d", "24h"] as const)
      await timeRange("raw samples only", range, server, ctxFor(DAYS));
  } finally {
    await server.stop();
  }

  started = performance.now();
  const report = await maintainHistory({
    db,
    config: { historyRetentionDays: 90, historyRawDays: 7 },
    now: () => end,
  });
  const maintainMs = performance.now() - started;
  await sql`vacuum analyze signal_samples`.execute(db);
  await sql`vacuum analyze signal_rollups`.execute(db);
  server = await startHistoryServer(7, account);
  try {
    for (const range of ["30d", "7d", "24h", "1h"] as const)
      await timeRange("rollups + 7 days raw (default)", range, server, ctxFor(7));
  } finally {
    await server.stop();
  }
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

  if (BROWSER) {
    const charts = await startHistoryServer(7, account);
    try {
      await measureCharts(charts.baseUrl, account, target);
    } finally {
      await charts.stop();
    }
  }
} finally {
  await drop();
}

interface Account {
  username: string;
  password: string;
}

/** An admin of the benchmark's domain (the answers are asked for as this person). */
async function createAdmin(domainId: string): Promise<Account> {
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
      password_changed_at: end,
    })
    .execute();
  return { username, password };
}

interface HistoryServer {
  baseUrl: string;
  /** The admin's session on it. */
  token: string;
  stop: () => Promise<void>;
}

/**
 * bench/history-server.ts forked over the seeded database, its clock frozen at the seeded month's
 * end, with `rawDays` as HISTORY_RAW_DAYS; signed in as the admin over HTTP.
 */
async function startHistoryServer(rawDays: number, account: Account): Promise<HistoryServer> {
  const child: ChildProcess = fork(path.join(here, "history-server.ts"), [], {
    env: {
      ...process.env,
      BENCH_PG_URL: url.toString(),
      BENCH_NOW: String(end.getTime()),
      HISTORY_RAW_DAYS: String(rawDays),
    },
    execArgv: ["--import", "tsx"],
    stdio: "inherit",
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.send("stop");
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once("message", (message) => resolve(message as { port: number }));
    child.once("exit", (code) => reject(new Error(`the history server exited with ${code}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    const login = await fetch(`${baseUrl}/api/login/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(account),
    });
    if (login.status !== 200) throw new Error(`sign-in: HTTP ${login.status} ${await login.text()}`);
    return { baseUrl, token: ((await login.json()) as { token: string }).token, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Signs the admin in through the console and times the charts of each range from answer to last drawn chart. */
async function measureCharts(base: string, account: Account, deviceId: string): Promise<void> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addCookies([
      { name: "locale", value: "en", url: base },
      { name: "version", value: "1", url: base },
    ]);
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel(/username/i).fill(account.username);
    await page.getByLabel(/^password/i).fill(account.password);
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
  }
}
