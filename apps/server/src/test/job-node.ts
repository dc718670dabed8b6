import path from "node:path";
import { sql } from "kysely";
import { createInProcessBus } from "../platform/bus/in-process-bus";
import { openDatabase } from "../platform/db/database";
import { createDispatcher } from "../platform/jobs/dispatcher";
import { createJobs } from "../platform/jobs/jobs";
import { loadPlatformSecrets } from "../platform/secrets";

// A server node reduced to its job dispatcher, for the process tests of platform/jobs (SIGKILL,
// two nodes) and the jobs benchmark. It runs `test.effect` jobs: each one records its run in
// job_effects (a table the test makes), keyed by job id, so a second run shows as runs = 2.
// It prints one line per event on stdout: `ready`, `started <id> <attempt>`, `finished <id>`.
// JOB_NODE_BLOCK=1 makes every handler block for ever after `started` (a node to kill mid-run).

/** The kind this node runs. */
const EFFECT_JOB = "test.effect";

async function main(): Promise<void> {
  const env = process.env;
  const node = env.JOB_NODE_NAME ?? `node-${process.pid}`;
  const database = env.JOB_NODE_DATABASE_URL
    ? openDatabase({ kind: "postgres", url: env.JOB_NODE_DATABASE_URL, maxConnections: 4 })
    : openDatabase({ kind: "pglite", dataDir: path.join(env.JOB_NODE_DATA_DIR ?? "", "db") });
  const db = database.db;
  const bus = createInProcessBus();
  const secrets = await loadPlatformSecrets(db);
  const jobs = createJobs({ db, bus, secrets, now: () => new Date() });
  const isBlocking = env.JOB_NODE_BLOCK === "1";
  jobs.register(EFFECT_JOB, {
    async handle({ id, attempt }) {
      process.stdout.write(`started ${id} ${attempt}\n`);
      if (isBlocking) await new Promise(() => {});
      await sql`insert into job_effects (job_id, node, runs) values (${id}, ${node}, 1)
        on conflict (job_id) do update set runs = job_effects.runs + 1`.execute(db);
      process.stdout.write(`finished ${id}\n`);
    },
  });
  const dispatcher = createDispatcher({
    db,
    bus,
    jobs,
    secrets,
    node,
    now: () => new Date(),
    log: { warn: (obj, msg) => console.error(msg, obj), error: (obj, msg) => console.error(msg, obj) },
    timings: {
      concurrency: Number(env.JOB_NODE_CONCURRENCY ?? 8),
      pollMs: 50,
      leaseMs: 1500,
      watchdogMs: 250,
    },
  });
  dispatcher.start();
  process.once("SIGTERM", () => {
    void (async () => {
      await dispatcher.stop();
      await database.close();
      process.exit(0);
    })();
  });
  process.stdout.write("ready\n");
}

main().catch((error: unknown) => {
  console.error("job node failed:", error);
  process.exit(1);
});
