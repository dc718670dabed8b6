// Durable jobs through the dispatcher (apps/server/src/platform/jobs), on PGlite on disk and on
// PostgreSQL: jobs a second with a trivial handler, and the delay from a commit to its job's start.
// Figures and how to read them: bench/README.md, "Jobs".

import { cpus, loadavg } from "node:os";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { createDispatcher } from "../apps/server/src/platform/jobs/dispatcher";
import { createJobs, type NoPayload } from "../apps/server/src/platform/jobs/jobs";
import { loadPlatformSecrets } from "../apps/server/src/platform/secrets";
import { openBenchStore } from "./bench-store";

const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ENGINES = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",") as Array<"pglite" | "postgres">;
const silent = { warn() {}, error() {} };

// The benchmark's own kind, declared like any module's (apps/server/src/platform/jobs/jobs.ts).
declare module "../apps/server/src/platform/jobs/jobs" {
  interface JobPayloads {
    "bench.noop": NoPayload;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(engine: "pglite" | "postgres") {
  const { database, drop } = await openBenchStore(engine, "jobsbench");
  try {
    const db = database.db;
    await migrateToLatest(db);
    const bus = createInProcessBus();
    const secrets = await loadPlatformSecrets(db);
    const jobs = createJobs({ db, bus, secrets, now: () => new Date() });
    const started = new Map<string, number>();
    let handled = 0;
    jobs.register("bench.noop", {
      handle: async ({ id }) => {
        started.set(id, performance.now());
        handled += 1;
      },
    });
    const dispatcher = createDispatcher({
      db,
      bus,
      jobs,
      secrets,
      node: `bench-${engine}`,
      now: () => new Date(),
      log: silent,
      timings: { concurrency: CONCURRENCY },
    });

    // Throughput: a backlog of JOBS queued jobs, drained by one node's dispatcher.
    for (let written = 0; written < JOBS; written += 500) {
      await db.transaction().execute(async (trx) => {
        for (let i = 0; i < Math.min(500, JOBS - written); i++)
          await jobs.enqueue(trx, { kind: "bench.noop" });
      });
    }
    const drainStart = performance.now();
    await dispatcher.runUntilIdle();
    const drainMs = performance.now() - drainStart;
    if (handled !== JOBS) throw new Error(`${handled} of ${JOBS} jobs handled`);

    // Commit to start: one job a transaction, the next only once the last has started, with the
    // dispatcher running as in production (bus wake-up after commit, 1 s polling behind it).
    dispatcher.start();
    const delays: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const id = (await jobs.transaction((trx) => jobs.enqueue(trx, { kind: "bench.noop" }))) as string;
      const committed = performance.now();
      while (!started.has(id)) await new Promise((resolve) => setImmediate(resolve));
      delays.push((started.get(id) as number) - committed);
    }
    await dispatcher.stop();
    delays.sort((a, b) => a - b);
    return {
      engine,
      jobsPerSecond: Math.round(JOBS / (drainMs / 1000)),
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
    };
  } finally {
    await drop();
  }
}

console.log(
  `jobs bench: ${JOBS} jobs, ${SAMPLES} delay samples, concurrency ${CONCURRENCY}; ${cpus().length} CPUs, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
for (const engine of ENGINES) {
  const result = await run(engine);
  console.log(
    `${result.engine.padEnd(8)} ${String(result.jobsPerSecond).padStart(6)} jobs/s   commit→start p50 ${result.p50.toFixed(2)} ms   p99 ${result.p99.toFixed(2)} ms`,
  );
}
console.log(
  `load after: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(" ")}`,
);
