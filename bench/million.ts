// A domain of BENCH_DEVICES (1,000,000) routers on PostgreSQL (issue 17): the first page of the device
// list from one client (p50/p99), the dashboard's totals, and the status sweep's cost, on the
// listing benchmark's seeded server (bench/listing-server.ts: 5% never reported, 70% online, 10%
// warning, 15% critical).
// npm run bench:million -w bench   (BENCH_DEVICES, BENCH_REQUESTS, BENCH_DATABASE_URL)
import { loadavg } from "node:os";
import type { KyselyPlugin, RawNode } from "kysely";
import { statusSweepRepo } from "../apps/server/src/modules/devices-status/status-sweep.repo";
import { runStatusSweep } from "../apps/server/src/modules/devices-status/status-sweep.service";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { openDatabase } from "../apps/server/src/platform/db/database";
import { benchToken, startBenchServer } from "./bench-server";
import { DatabaseCpu } from "./cpu";
import { KeepAliveClient } from "./http-load";

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 300);
const MAX_SWEEPS = Number(process.env.BENCH_MAX_SWEEPS ?? 400);
const QUIET_RUNS = Number(process.env.BENCH_QUIET_RUNS ?? 9);

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const round = (value: number) => Math.round(value * 10) / 10;

console.log(
  `seeding ${DEVICES} devices; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
const server = await startBenchServer({ engine: "postgres", devices: DEVICES, name: "cf_bench_million" });
try {
  console.log(`seeded in ${Math.round(server.seedMs / 1000)} s`);
  const token = await benchToken(server);
  const client = new KeepAliveClient(server.baseUrl);
  const time = async (path: string, body: unknown) => {
    const answer = await client.postJson(path, { token }, body);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
    return answer.totalMs;
  };
  // Warm-up: JIT, the pool, the first counts.
  for (let i = 0; i < 20; i++) await time("/api/devices/", {});
  const page: number[] = [];
  for (let i = 0; i < REQUESTS; i++) page.push(await time("/api/devices/", {}));
  const pageFresh: number[] = [];
  for (let i = 0; i < 8; i++) {
    // Past the 2 s the totals are shared for, so each answer counts again.
    await new Promise((resolve) => setTimeout(resolve, 2100));
    pageFresh.push(await time("/api/devices/", {}));
  }
  const dashboard: number[] = [];
  for (let i = 0; i < 8; i++) {
    await new Promise((resolve) => setTimeout(resolve, 2100));
    dashboard.push(await time("/api/dashboard/", {}));
  }
  const dashboardShared: number[] = [];
  for (let i = 0; i < 50; i++) dashboardShared.push(await time("/api/dashboard/", {}));
  client.close();
  console.log(
    JSON.stringify({
      devices: DEVICES,
      firstPage: { p50: round(percentile(page, 50)), p99: round(percentile(page, 99)), requests: REQUESTS },
      firstPageRecounted: { p50: round(percentile(pageFresh, 50)), max: round(Math.max(...pageFresh)) },
      dashboardRecounted: { p50: round(percentile(dashboard, 50)), max: round(Math.max(...dashboard)) },
      dashboardShared: {
        p50: round(percentile(dashboardShared, 50)),
        p99: round(percentile(dashboardShared, 99)),
      },
      load: loadavg()[0],
    }),
  );

  // The status sweep, as the server runs it (5,000 changes a run at most), on a clock frozen when this
  // part starts: the seeded contact times then stay where they are instead of ageing into the next
  // status while it runs (routers that report keep their contact fresh; seeded rows do not). First
  // until nothing changes (the seed leaves every stored status 'pending'), then QUIET_RUNS runs that
  // find no change: the cost of each run at steady state, every STATUS_SWEEP_INTERVAL_MS.
  const database = openDatabase({ kind: "postgres", url: server.databaseUrl ?? "", maxConnections: 2 });
  const frozen = new Date();
  const deps = {
    db: database.db,
    bus: createInProcessBus(),
    now: () => frozen,
    log: { info() {}, warn() {}, error() {} },
  };
  // PostgreSQL's CPU: the backends of this database only (bench/cpu.ts).
  const postgresCpu = await DatabaseCpu.open(server.databaseUrl ?? "");
  const runs: Array<{ ms: number; changed: number; pgMs: number }> = [];
  const converging = performance.now();
  for (let i = 0; i < MAX_SWEEPS; i++) {
    await postgresCpu.start();
    const started = performance.now();
    const changed = await runStatusSweep(deps);
    runs.push({ ms: performance.now() - started, changed, pgMs: await postgresCpu.sample() });
    if (changed === 0) break;
    if (i % 20 === 19)
      console.log(`  sweep ${i + 1}: ${runs.reduce((sum, run) => sum + run.changed, 0)} changed so far`);
  }
  const convergedMs = performance.now() - converging;
  const quiet: Array<{ ms: number; pgMs: number; changed: number }> = [];
  for (let i = 0; i < QUIET_RUNS; i++) {
    await postgresCpu.start();
    const started = performance.now();
    const changed = await runStatusSweep(deps);
    quiet.push({ ms: performance.now() - started, pgMs: await postgresCpu.sample(), changed });
    console.log(
      `  quiet sweep ${i + 1}: ${Math.round(quiet.at(-1)?.ms ?? 0)} ms, load ${loadavg()[0].toFixed(1)}`,
    );
  }
  await postgresCpu.close();
  // The plan of the sweep's query itself: the repo's statement, prefixed with EXPLAIN by a plugin.
  const explain: KyselyPlugin = {
    transformQuery: (args) => {
      const node = args.node as RawNode;
      return {
        ...node,
        sqlFragments: [`explain (analyze, buffers) ${node.sqlFragments[0]}`, ...node.sqlFragments.slice(1)],
      } as RawNode;
    },
    transformResult: async (args) => args.result,
  };
  const plan = (await statusSweepRepo(database.db.withPlugin(explain)).findStatusChangesAcrossDomains(
    frozen,
    5000,
  )) as unknown as Array<{ "QUERY PLAN": string }>;
  console.log(plan.map((row) => row["QUERY PLAN"]).join("\n"));
  await database.close();
  const busy = runs.filter((run) => run.changed > 0);
  const quietMs = quiet.map((run) => run.ms);
  const quietPgMs = quiet.map((run) => run.pgMs);
  console.log(
    JSON.stringify({
      sweep: {
        runsWithChanges: busy.length,
        changed: busy.reduce((sum, run) => sum + run.changed, 0),
        convergedSeconds: round(convergedMs / 1000),
        msPerRunWithChanges: round(busy.reduce((sum, run) => sum + run.ms, 0) / Math.max(1, busy.length)),
        postgresCpuMsPerRunWithChanges: round(
          busy.reduce((sum, run) => sum + run.pgMs, 0) / Math.max(1, busy.length),
        ),
        converged: runs.at(-1)?.changed === 0,
        quietRuns: QUIET_RUNS,
        quietChanged: quiet.reduce((sum, run) => sum + run.changed, 0),
        quietRunMs: {
          p50: round(percentile(quietMs, 50)),
          min: round(Math.min(...quietMs)),
          max: round(Math.max(...quietMs)),
        },
        quietPostgresCpuMs: { p50: round(percentile(quietPgMs, 50)), max: round(Math.max(...quietPgMs)) },
      },
      load: loadavg().map(round),
    }),
  );
} finally {
  await server.stop();
}
