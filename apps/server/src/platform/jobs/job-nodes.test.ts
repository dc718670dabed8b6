import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import {
  EFFECT_JOB,
  type JobNode,
  prepareJobStore,
  setUpJobStore,
  startJobNode,
} from "./job-nodes.test-support";

// Jobs across real processes: a node killed with SIGKILL in the middle of a job, and two nodes
// sharing one PostgreSQL database. Side effects are counted in job_effects (one row per job,
// `runs` counting every run), so a job run twice or lost shows in the counts.

const serverUrl = process.env.DATABASE_URL;
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

function track(node: JobNode): JobNode {
  cleanups.push(async () => {
    if (node.child.exitCode === null && node.child.signalCode === null) await node.kill();
  });
  return node;
}

describe("a job survives SIGKILL of the node running it", () => {
  it("kills the node mid-run, starts another, and the job runs to done exactly once", {
    timeout: 90_000,
  }, async () => {
    const store = await prepareJobStore(serverUrl);
    cleanups.push(store.drop);
    // PGlite on disk is opened by one process at a time: set up, close, then hand it to the nodes.
    let database = store.open();
    const jobs = await setUpJobStore(database);
    const id = (await jobs.enqueue(database.db, { kind: EFFECT_JOB, payload: { n: 1 } })) as string;
    await database.close();

    const doomed = track(startJobNode({ ...store.env, JOB_NODE_NAME: "doomed", JOB_NODE_BLOCK: "1" }));
    await doomed.waitForLine(new RegExp(`^started ${id} 1$`));
    await doomed.kill();

    const survivor = track(startJobNode({ ...store.env, JOB_NODE_NAME: "survivor" }));
    // The watchdog returns the job once the dead node's lease (1.5 s) has run out.
    await survivor.waitForLine(new RegExp(`^finished ${id}$`), 40_000);
    await survivor.stop();
    expect(survivor.lines.filter((line) => line.startsWith(`started ${id}`))).toEqual([`started ${id} 2`]);

    database = store.open();
    try {
      const job = await database.db
        .selectFrom("jobs")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(job.state).toBe("done");
      expect(job.attempts).toBe(2);
      expect(job.last_error).toContain("lease expired");
      const effects = await sql<{ node: string; runs: number }>`select node, runs from job_effects`.execute(
        database.db,
      );
      expect(effects.rows).toEqual([{ node: "survivor", runs: 1 }]);
    } finally {
      await database.close();
    }
  });
});

describe.skipIf(!serverUrl)("two nodes on one PostgreSQL database", () => {
  it("run 1,000 jobs: none twice, none lost, both do some", { timeout: 120_000 }, async () => {
    const store = await prepareJobStore(serverUrl);
    cleanups.push(store.drop);
    const database = store.open();
    cleanups.push(() => database.close());
    const jobs = await setUpJobStore(database);
    const nodes = ["left", "right"].map((name) => track(startJobNode({ ...store.env, JOB_NODE_NAME: name })));
    for (const node of nodes) await node.waitForLine(/^ready$/);

    const total = 1000;
    for (let batch = 0; batch < total / 100; batch++) {
      await database.db.transaction().execute(async (trx) => {
        for (let i = 0; i < 100; i++)
          await jobs.enqueue(trx, { kind: EFFECT_JOB, payload: { n: batch * 100 + i } });
      });
    }
    const deadline = Date.now() + 90_000;
    for (;;) {
      const done = await database.db
        .selectFrom("jobs")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("state", "=", "done")
        .executeTakeFirstOrThrow();
      if (Number(done.n) === total) break;
      if (Date.now() > deadline) {
        const logs = nodes.map((node) => `exit ${node.child.exitCode}: ${node.stderr()}`).join("\n");
        throw new Error(`only ${done.n} of ${total} jobs done in time: ${logs}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const node of nodes) await node.stop();

    const effects = await sql<{ node: string; jobs: string; runs: string; max_runs: number }>`
      select node, count(*) as jobs, sum(runs) as runs, max(runs) as max_runs
      from job_effects group by node order by node`.execute(database.db);
    const byNode = Object.fromEntries(effects.rows.map((row) => [row.node, row]));
    expect(Object.keys(byNode).sort()).toEqual(["left", "right"]);
    const jobsRun = effects.rows.reduce((sum, row) => sum + Number(row.jobs), 0);
    const runs = effects.rows.reduce((sum, row) => sum + Number(row.runs), 0);
    expect(jobsRun).toBe(total);
    expect(runs).toBe(total);
    expect(Math.max(...effects.rows.map((row) => row.max_runs))).toBe(1);
    for (const row of effects.rows) expect(Number(row.jobs)).toBeGreaterThan(0);
    const attempts = await database.db
      .selectFrom("jobs")
      .select(["state", "attempts"])
      .where((eb) => eb.or([eb("state", "!=", "done"), eb("attempts", "!=", 1)]))
      .execute();
    expect(attempts).toEqual([]);
    console.info(`two nodes: ${effects.rows.map((row) => `${row.node} ${row.jobs}`).join(", ")}`);
  });
});
