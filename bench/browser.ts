// Browser benchmark (issue 3): the dashboard over BENCH_DEVICES (100,000) devices in Debian's Chromium.
// Signs in through the login page and measures the time to the first device rows after a navigation,
// the rows in the DOM at each page size against the paginator's total, the time from a click or a
// keystroke until the new rows are painted (next page, page size, search, tag, status card, clear),
// the main thread's long tasks meanwhile, and the JS heap after the run.
// npm run bench:browser -w bench   (BENCH_DEVICES BENCH_CLICKS BENCH_LOADS BENCH_BUILD=0 BENCH_PROFILE CHROMIUM_PATH
// BENCH_DATABASE_URL)
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/support/chromium";
import { startBenchServer } from "./bench-server";
import {
  metrics,
  paginatorTotal,
  percentile,
  type Session,
  type Timing,
  timeInteraction,
  timeNavigation,
} from "./browser-measure";
import { installProbes, type RowCondition, readListDom } from "./browser-probes";

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const CLICKS = Number(process.env.BENCH_CLICKS ?? 5);
const WARM_LOADS = Number(process.env.BENCH_LOADS ?? 3);
const PAGE_SIZES = [10, 50, 100];
const here = path.dirname(fileURLToPath(import.meta.url));
const SHOTS_DIR = path.join(here, "screenshots");
/** BENCH_PROFILE=dir writes a CPU profile of the page's main thread during the interactions into dir. */
const PROFILE_DIR = process.env.BENCH_PROFILE;

const ident = (n: number) => `BENCH${String(n).padStart(7, "0")}`;
/** The idents of a page of the default sort (ident ascending) with no filter. */
const pageIdents = (page: number, size: number) =>
  Array.from({ length: size }, (_, index) => ident(page * size + index + 1));
const fmt = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms)} ms` : "–");
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function checkRows(page: Page, size: number) {
  await page.waitForTimeout(1000); // anything still streaming in would add rows now
  const dom = await page.evaluate(readListDom);
  const verdict = dom.deviceRows <= size ? "ok" : "MORE THAN THE PAGE SIZE";
  console.log(
    `  page size ${size}: ${dom.deviceRows} device rows (${dom.tableRows} <tr>, ${dom.nodes} elements) — ${verdict}; paginator "${dom.paginator}"`,
  );
  return { size, ...dom, total: paginatorTotal(dom.paginator) };
}

function summarise(timings: Timing[], group: string) {
  const list = timings.filter((timing) => timing.group === group);
  const tasks = list.flatMap((timing) => timing.longTasks);
  const longest = Math.max(0, ...tasks.map((task) => task.duration));
  const p50 = (pick: (timing: Timing) => number) => fmt(percentile(list.map(pick), 50));
  const max = Math.max(...list.map((timing) => timing.ms));
  return (
    `| ${group} | ${list.length} | ${p50((t) => t.ms)} | ${fmt(max)} | ${p50((t) => t.firstByteMs)} / ${p50((t) => t.answerMs)} | ` +
    `${p50((t) => t.cpuMs)} | ${p50((t) => t.scriptMs)} | ${tasks.length} | ${fmt(longest)} |`
  );
}

async function measureDashboard(session: Session, server: { username: string; password: string }) {
  const { page, cdp } = session;
  await page.goto("/login");
  await page.getByLabel(/username/i).fill(server.username);
  await page.getByLabel(/^password/i).fill(server.password);
  await page.getByRole("button", { name: /^sign in$/i }).click();
  await page.waitForURL(/\/dashboard$/);
  await page.getByTestId("device-row").first().waitFor({ timeout: 60_000 });

  console.log("\nNavigation to /dashboard → first device rows painted (page size 10):");
  console.log(
    "| load | first rows | first contentful paint | list request: sent, first byte, last byte | rows then | long tasks | longest |",
  );
  for (let i = 0; i <= WARM_LOADS; i++) {
    const load = await timeNavigation(page, cdp, i === 0);
    console.log(
      `| ${i === 0 ? "cold (cache off)" : `warm ${i}`} | ${fmt(load.firstRowMs)} | ${fmt(load.fcpMs)} | ${fmt(load.listSentMs)}, ${fmt(load.listFirstByteMs)}, ${fmt(load.listLastByteMs)} | ${load.rows} | ${load.longTasks} | ${fmt(load.longestMs)} |`,
    );
  }
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
  await page.getByTestId("list-paginator").getByText(/ of /).waitFor();
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS_DIR, `dashboard-${DEVICES}-size10.png`) });
  const before = await metrics(cdp);
  const phaseStart = await page.evaluate(() => performance.now());
  if (PROFILE_DIR) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.start");
  }

  console.log("\nPage sizes (the DOM one second after the rows were shown):");
  const checks = [];
  for (const size of PAGE_SIZES) {
    if (size !== PAGE_SIZES[0]) {
      await timeInteraction(
        session,
        "page size change",
        "click",
        { count: size, idents: pageIdents(0, size) },
        async () => {
          await page.getByTestId("list-paginator").getByRole("combobox").click();
          await page.getByRole("option", { name: String(size), exact: true }).click();
        },
      );
    }
    checks.push(await checkRows(page, size));
    for (let target = 1; target <= CLICKS; target++) {
      await timeInteraction(
        session,
        `next page, ${size} rows`,
        "click",
        { count: size, idents: pageIdents(target, size) },
        () => page.getByRole("button", { name: `Page ${target + 1}`, exact: true }).click(),
      );
    }
  }
  // A viewport as tall as the page rather than fullPage: fullPage draws the fixed app bar and drawer
  // out of place.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: 1400, height });
  await page.screenshot({ path: path.join(SHOTS_DIR, `dashboard-${DEVICES}-size100.png`) });
  await page.setViewportSize({ width: 1400, height: 900 });

  // Filters at 100 rows a page, the heaviest page to replace.
  const size = PAGE_SIZES[PAGE_SIZES.length - 1] ?? 100;
  const firstPage: RowCondition = { count: size, idents: pageIdents(0, size) };
  const clear = () => page.getByRole("button", { name: /clear filters/i }).click();
  const search = page.getByRole("combobox", { name: /search/i });
  for (const [text, condition] of [
    ["pump", { count: size, textIncludes: "pump" }],
    ["BENCH00123", { count: size, identIncludes: "BENCH00123" }],
  ] as const) {
    await timeInteraction(
      session,
      `search "${text}" (incl. 150 ms debounce)`,
      "input",
      condition,
      async () => {
        await search.click();
        await search.pressSequentially(text, { delay: 60 });
      },
    );
    await search.press("Escape");
    await timeInteraction(session, "clear filters", "click", firstPage, clear);
  }
  const tags = page.getByRole("combobox", { name: /^tags/i });
  await tags.fill("kazan");
  await timeInteraction(
    session,
    'tag "kazan" (Enter)',
    "keydown",
    { count: size, textIncludes: "kazan" },
    () => tags.press("Enter"),
  );
  await timeInteraction(session, "clear filters", "click", firstPage, clear);
  await timeInteraction(session, "status card: critical", "click", { count: size, status: "critical" }, () =>
    page.getByTestId("total-critical").click(),
  );
  await timeInteraction(session, "clear filters", "click", firstPage, clear);

  const phase = await page.evaluate(
    (start) => window.__bench.longTasks.filter((task) => task.start >= start),
    phaseStart,
  );
  if (PROFILE_DIR) {
    const { profile } = await cdp.send("Profiler.stop");
    mkdirSync(PROFILE_DIR, { recursive: true });
    const file = path.join(PROFILE_DIR, `dashboard-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`\nCPU profile of the page during the interactions: ${file}`);
  }
  const after = await metrics(cdp);
  await cdp.send("HeapProfiler.collectGarbage");
  const afterGc = await metrics(cdp);
  return { checks, phase, before, after, afterGc };
}

async function main() {
  if (process.env.BENCH_BUILD !== "0") {
    execFileSync("npm", ["run", "build", "-w", "apps/web"], { cwd: path.join(here, ".."), stdio: "inherit" });
  }
  const engine = process.env.BENCH_ENGINE === "pglite" ? "pglite" : "postgres";
  console.log(
    `Browser benchmark: ${DEVICES} devices on ${engine}, ${cpus().length} CPUs, ${mb(totalmem())} RAM, ` +
      `load average ${loadavg()[0]?.toFixed(1)}, ${new Date().toISOString()}`,
  );
  const server = await startBenchServer({ engine, devices: DEVICES, name: "cf_bench_browser" });
  let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null;
  try {
    console.log(
      `seeded ${DEVICES} devices in ${(server.seedMs / 1000).toFixed(1)} s; server at ${server.baseUrl}`,
    );
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    console.log(`Chromium ${browser.version()}`);
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width: 1400, height: 900 },
    });
    await context.addCookies([
      { name: "version", value: "1", url: server.baseUrl },
      { name: "locale", value: "en", url: server.baseUrl },
    ]);
    // tsx keeps function names with a __name helper the page lacks: give the page a no-op one.
    await context.addInitScript({ content: "globalThis.__name ??= (fn) => fn;" });
    await context.addInitScript(installProbes);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await cdp.send("Network.enable");
    const timings: Timing[] = [];
    const result = await measureDashboard({ page, cdp, timings }, server);

    console.log("\n| page size | device rows in DOM | <tr> in DOM | elements | paginator total |");
    for (const check of result.checks) {
      console.log(
        `| ${check.size} | ${check.deviceRows} | ${check.tableRows} | ${check.nodes} | ${check.total.toLocaleString("en")} |`,
      );
    }
    console.log("\nInteraction → new rows painted (page's clock; long tasks overlapping each interaction):");
    console.log(
      "| interaction | n | p50 | max | list request p50: first byte / last | main-thread CPU p50 | script p50 | long tasks | longest |",
    );
    for (const group of new Set(timings.map((timing) => timing.group)))
      console.log(summarise(timings, group));
    const longest = Math.max(0, ...result.phase.map((task) => task.duration));
    const blocked = result.phase.reduce((sum, task) => sum + task.duration, 0);
    console.log(
      `\nLong tasks during all interactions: ${result.phase.length}, longest ${fmt(longest)}, ${fmt(blocked)} in all`,
    );
    console.log(
      `JS heap used: ${mb(result.before.JSHeapUsedSize ?? 0)} before the interactions, ` +
        `${mb(result.after.JSHeapUsedSize ?? 0)} after, ${mb(result.afterGc.JSHeapUsedSize ?? 0)} after a GC ` +
        `(heap total ${mb(result.afterGc.JSHeapTotalSize ?? 0)}); DOM nodes ${result.afterGc.Nodes}, ` +
        `event listeners ${result.afterGc.JSEventListeners}`,
    );
    console.log(`screenshots in ${SHOTS_DIR}; load average at the end ${loadavg()[0]?.toFixed(1)}`);
  } finally {
    await browser?.close();
    await server.stop();
  }
}

await main();
