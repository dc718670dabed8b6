// The fleet map at 100,000 routers (issue 31, ADR 045): the server seeds the routers (listing-server.ts,
// the device list bench's seeding), this script scatters them over Europe, then Chromium opens /map
// and times the first paint of the clusters (navigation to the first cluster marker drawn, cold: the
// server builds the index) and pans (a drag until the new viewport's markers are drawn, the index
// cached). Run: `npm run bench:map -w bench` (BENCH_DEVICES, BENCH_PANS). Figures go in bench/README.md.
import { loadavg } from "node:os";
import pg from "pg";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../e2e/support/chromium";
import { startBenchServer } from "./bench-server";

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const PANS = Number(process.env.BENCH_PANS ?? 5);
const fmt = (ms: number) => `${Math.round(ms)} ms`;

async function scatter(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  // Europe and around (35–65 N, 10 W–40 E), so every zoom has clusters to draw.
  await client
    .query(
      `update devices set latitude = 35 + random() * 30, longitude = -10 + random() * 50, position_source = 'gps'`,
    )
    .finally(() => client.end());
}

async function main(): Promise<void> {
  console.log(
    `load average before: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(" ")}`,
  );
  const server = await startBenchServer({ engine: "postgres", devices: DEVICES, name: "cf_bench_map" });
  let browser: Awaited<ReturnType<typeof chromium.launch>> | null = null;
  try {
    if (!server.databaseUrl) throw new Error("the map bench runs on PostgreSQL");
    await scatter(server.databaseUrl);
    console.log(`seeded and placed ${DEVICES} routers; server at ${server.baseUrl}`);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const context = await browser.newContext({
      baseURL: server.baseUrl,
      viewport: { width: 1400, height: 900 },
    });
    await context.addCookies([{ name: "locale", value: "en", url: server.baseUrl }]);
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel(/username/i).fill(server.username);
    await page.getByLabel(/^password/i).fill(server.password);
    await page.getByRole("button", { name: /^sign in$/i }).click();
    await page.waitForURL(/\/dashboard$/);

    const started = Date.now();
    await page.goto("/map");
    await page.getByTestId("map-cluster").first().waitFor({ timeout: 120_000 });
    const firstPaint = Date.now() - started;
    const markers = await page.locator(".maplibregl-marker").count();
    console.log(`first paint of /map (cold index): ${fmt(firstPaint)}, ${markers} markers`);

    const box = await page.getByTestId("fleet-map").boundingBox();
    if (!box) throw new Error("no map on the page");
    const pans: number[] = [];
    const answers: number[] = [];
    for (let i = 0; i < PANS; i++) {
      let asked = 0;
      const ask = page.waitForRequest((request) => request.url().endsWith("/api/map/clusters"));
      void ask.then(() => {
        asked = Date.now();
      });
      const answer = page.waitForResponse((response) => response.url().endsWith("/api/map/clusters"));
      const before = Date.now();
      const x = box.x + box.width / 2;
      const y = box.y + box.height / 2;
      await page.mouse.move(x, y);
      await page.mouse.down();
      await page.mouse.move(x + (i % 2 === 0 ? 220 : -220), y + 60, { steps: 8 });
      await page.mouse.up();
      await answer;
      // The markers of the new answer are drawn in the next frame.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(undefined))));
      pans.push(Date.now() - before);
      answers.push(Date.now() - asked);
    }
    pans.sort((a, b) => a - b);
    answers.sort((a, b) => a - b);
    // MapLibre eases a drag out (inertia) before moveend, when the page asks: both figures are shown.
    const median = (values: number[]) => fmt(values[Math.floor(values.length / 2)] ?? 0);
    const max = (values: number[]) => fmt(values[values.length - 1] ?? 0);
    console.log(
      `pan, ${PANS} pans: drag to markers drawn (inertia included) median ${median(pans)}, max ${max(pans)}; request to markers drawn median ${median(answers)}, max ${max(answers)}`,
    );
    console.log(`server CPU ${fmt(await server.cpuMs())}, heap ${(await server.heapUsedMb()).toFixed(0)} MB`);
    console.log(
      `load average after: ${loadavg()
        .map((value) => value.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    await browser?.close();
    await server.stop();
  }
}

await main();
