// A staged firmware rollout over 10,000 simulated routers (issue 16, ADR 021): the real app (routes,
// jobs with the `rollout.advance` driver, embedded broker, ingest with the actions hook) on a fresh
// database, the routers in a child process (bench/rollout-fleet.ts) that download the rule's file by
// its signed URL, report, reboot and come back on the version. Measures wall time and the server
// process's CPU per stage (canary, each wave), its RSS, the command throughput, PostgreSQL's CPU and
// the advance jobs' durations; with BENCH_FAIL_RATE over BENCH_ERROR_BUDGET the time to the pause.
// Figures and how to read them: bench/README.md, "Firmware rollout (issue 16)".
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { openBenchStore } from "./bench-store";
import { cpuMs } from "./cpu";
import { bootConsole, seedFleet } from "./fleet-console";
import { startProfile, summarizeProfile } from "./rollout-profile";
import { printRollout, type StageMark } from "./rollout-report";

const here = path.dirname(fileURLToPath(import.meta.url));
const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUTERS = env("BENCH_ROUTERS", 10_000);
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";
const VERSION = "BENCH_R_99.01.02";
const OPTIONS = {
  canary: { percent: env("BENCH_CANARY_PERCENT", 1) },
  waveSize: env("BENCH_WAVE", Math.max(1, Math.round(ROUTERS / 4))),
  concurrency: env("BENCH_CONCURRENCY", 500),
  successRate: env("BENCH_SUCCESS_RATE", 0.95),
  errorBudget: env("BENCH_ERROR_BUDGET", 0.05),
  deadlineMinutes: 30,
};
const REBOOT_MS = env("BENCH_REBOOT_MS", 5000);
const FAIL_RATE = env("BENCH_FAIL_RATE", 0);
const IMAGE = Buffer.alloc(env("BENCH_FIRMWARE_KB", 64) * 1024, 7);
const TIMEOUT_MS = env("BENCH_TIMEOUT_S", 1800) * 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU (user + system) of one process so far, ms, from /proc (0 once it ended). */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: { type: string }) => {
      if (message.type !== type) return;
      child.off("message", onMessage);
      resolve(message as T);
    };
    child.on("message", onMessage);
    child.send({ type });
  });
}

export async function runRolloutBench(): Promise<{ status: string; stages: StageMark[] }> {
  const { database, drop } = await openBenchStore(ENGINE, "rollout");
  const dataDir = mkdtempSync(path.join(tmpdir(), "cellfleet-rollout-"));
  const files = createServer((_request, response) => void response.writeHead(200).end(IMAGE));
  let fleet: ChildProcess | null = null;
  try {
    const db = database.db;
    const domainId = await seedFleet(db, { name: "rollout", prefix: "RB", routers: ROUTERS });
    // The domain accepts offered rollouts by itself (ADR 031): the bench measures the rollout, not an admin.
    await sql`update domains set settings = settings || '{"rollouts":{"auto_accept":true,"window":null}}'::jsonb
      where id = ${domainId}`.execute(db);
    await db
      .insertInto("users")
      .values({
        id: randomUUID(),
        domain_id: null,
        username: "root",
        role: 1,
        plugins: toJsonb(["notification"]),
        password_hash: await hashPassword("Bench-Pass-1"),
        factory_password: false,
        password_changed_at: new Date(),
        create_time: new Date(),
      })
      .execute();

    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    const { app, bus, ingest, config } = await bootConsole(database, { dataDir }, true);
    config.publicUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const connectStart = Date.now();
    const args = [ingest.gateway.url, "RB", String(ROUTERS), String(REBOOT_MS), String(FAIL_RATE), "500"];
    fleet = fork(path.join(here, "rollout-fleet.ts"), args, {
      execArgv: ["--import", "tsx"],
      stdio: "inherit",
    });
    const hellos = async () =>
      Number(
        (
          await db
            .selectFrom("devices")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("domain_id", "=", domainId)
            .where("firmware", "is not", null)
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let tick = 0; (await hellos()) < ROUTERS; tick += 1) {
      if (tick % 20 === 0) console.log(`hellos stored ${await hellos()} of ${ROUTERS}`);
      if (Date.now() - connectStart > 600_000) throw new Error("the fleet did not connect in 10 minutes");
      await sleep(500);
    }
    await sleep(3000);
    const connectedMs = Date.now() - connectStart;
    // Every router has a good link and no modem report: none waits (the planner's cell-edge rule).
    await db.updateTable("devices").set({ signal_csq: 25 }).where("domain_id", "=", domainId).execute();
    await db.deleteFrom("device_collects").execute();

    const login = await app.inject({
      method: "POST",
      url: "/api/login/",
      payload: { username: "root", password: "Bench-Pass-1" },
    });
    const token = login.json().token as string;
    const post = (url: string, payload: object = {}) =>
      app.inject({ method: "POST", url, headers: { token }, payload });
    const models = (await db.selectFrom("devices").select("model").distinct().execute())
      .map((row) => row.model)
      .filter((model): model is string => model !== null);
    const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const created = await post("/api/software/new", {
      name: "bench",
      url: `${base}/fw/${VERSION}.bin`,
      models,
    });
    if (created.statusCode !== 200) throw new Error(created.body);
    const ruleId = created.json()._id as string;
    while ((await post(`/api/software/${ruleId}`)).json().status !== 2) await sleep(200);

    const load = loadavg().map((value) => value.toFixed(2));
    const fleetBefore = await ask<{ cpu: NodeJS.CpuUsage }>(fleet, "stats");
    // PostgreSQL's CPU: the backends serving this database (the pool's; other helpers' are not ours).
    // A backend the pool closed keeps the CPU last read of it; read at every poll, little is lost.
    const backends = new Map<number, number>();
    const postgresMs = async () => {
      const rows = await sql<{
        pid: number;
      }>`select pid from pg_stat_activity where datname = current_database()`.execute(db);
      for (const row of rows.rows) if (!backends.has(row.pid)) backends.set(row.pid, 0);
      for (const pid of backends.keys()) backends.set(pid, processCpuMs(pid) || (backends.get(pid) ?? 0));
      return [...backends.values()].reduce((sum, value) => sum + value, 0);
    };
    const pgStart = ENGINE === "postgres" ? await postgresMs() : 0;
    const mark = async (stage: number): Promise<StageMark> => ({
      stage,
      at: Date.now(),
      cpuMs: cpuMs(process.cpuUsage()),
      pgMs: ENGINE === "postgres" ? await postgresMs() : 0,
    });
    const marks: StageMark[] = [await mark(0)];
    const profileFile = process.env.BENCH_CPU_PROFILE;
    const stopProfile = profileFile ? await startProfile() : null;
    const started = await post(`/api/software/${ruleId}/rollout`, OPTIONS);
    if (started.statusCode !== 200) throw new Error(started.body);
    const rolloutId = started.json()._id as string;
    let maxRss = 0;
    let status = "running";
    let reason: string | null = null;
    for (let polls = 0; ; polls += 1) {
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
      if (ENGINE === "postgres") await postgresMs();
      const row = await db
        .selectFrom("firmware_rollouts")
        .select(["status", "stage", "pause_reason"])
        .where("id", "=", rolloutId)
        .executeTakeFirstOrThrow();
      status = row.status;
      reason = row.pause_reason;
      const last = marks[marks.length - 1] as StageMark;
      if (row.stage !== last.stage) {
        const next = await mark(row.stage);
        marks.push(next);
        console.log(
          `stage ${last.stage} over after ${((next.at - last.at) / 1000).toFixed(1)} s, server CPU ${((next.cpuMs - last.cpuMs) / 1000).toFixed(1)} s`,
        );
      }
      if (status !== "running") break;
      // Past the time limit the figures so far are printed (status "running"): a slow machine still reports.
      if (Date.now() - (marks[0] as StageMark).at > TIMEOUT_MS) break;
      if (polls % 40 === 0)
        console.log(`${((Date.now() - (marks[0] as StageMark).at) / 1000).toFixed(0)} s: stage ${row.stage}`);
      await sleep(250);
    }
    marks.push(await mark(-1));
    const profile = stopProfile ? await stopProfile() : null;
    const pgMs = (marks[marks.length - 1] as StageMark).pgMs - pgStart;
    const fleetAfter = await ask<{ cpu: NodeJS.CpuUsage; fleet: { reboots: number; commands: number } }>(
      fleet,
      "stats",
    );
    const targets = await db
      .selectFrom("firmware_rollout_targets")
      .select(["stage", "state", (eb) => eb.fn.countAll<string>().as("n")])
      .where("rollout_id", "=", rolloutId)
      .groupBy(["stage", "state"])
      .execute();
    const advances = await db
      .selectFrom("jobs")
      .select(["run_at", "finish_time"])
      .where("kind", "=", "rollout.advance")
      .where("finish_time", "is not", null)
      .execute();
    printRollout({
      engine: ENGINE,
      routers: ROUTERS,
      options: OPTIONS,
      rebootMs: REBOOT_MS,
      failRate: FAIL_RATE,
      load,
      loadAfter: loadavg().map((value) => value.toFixed(2)),
      connectedMs,
      status,
      reason,
      marks,
      targets: targets.map((row) => ({ stage: row.stage, state: row.state, count: Number(row.n) })),
      advanceMs: advances.map((job) => (job.finish_time as Date).getTime() - (job.run_at as Date).getTime()),
      maxRssMb: maxRss / 1024 / 1024,
      pgMs,
      fleetCpuMs: cpuMs(fleetAfter.cpu) - cpuMs(fleetBefore.cpu),
      fleetReboots: fleetAfter.fleet.reboots,
    });
    if (profile && profileFile) summarizeProfile(profile, profileFile);
    fleet.send({ type: "stop" });
    app.deviceLink.detach();
    await ingest.close();
    await app.close();
    await bus.close();
    return { status, stages: marks };
  } finally {
    if (fleet && fleet.exitCode === null) fleet.kill("SIGTERM");
    await new Promise((resolve) => files.close(resolve));
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  runRolloutBench().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
