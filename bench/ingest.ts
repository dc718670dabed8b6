// Ingest benchmark: simulated routers → embedded MQTT broker → database, batched pipeline against a
// naive path (one transaction and INSERT per report), on PGlite and on PostgreSQL, in one run.
// npm run bench:ingest -w bench   (BENCH_SECONDS, BENCH_DEVICES, BENCH_WINDOW, BENCH_DATABASE_URL; BENCH_RATE and
// BENCH_EVENT_EVERY for the load, bench/ingest-load.ts)
// The batched path's report→socket latency is read at a real browser socket: the app serves
// /api/ws/ beside the pipeline (same event loop, same bus, as a server node), and a client in a child
// process (bench/realtime-clients.ts) signs in over HTTP and subscribes to the whole domain; it
// takes now − the report's device time of every collect it receives.
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { cpus } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { buildApp } from "../apps/server/src/app";
import {
  createDeviceAuthenticator,
  isDeviceAccessAllowed,
} from "../apps/server/src/modules/ingest/device-auth";
import type { ParsedReport } from "../apps/server/src/modules/ingest/ingest.plan";
import { collectData } from "../apps/server/src/modules/ingest/ingest.plan";
import { createIngestPipeline } from "../apps/server/src/modules/ingest/ingest.service";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import type { Database } from "../apps/server/src/platform/db/database";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { toJsonb } from "../apps/server/src/platform/db/schema";
import { GatewayCounters } from "../apps/server/src/platform/mqtt/counters";
import { startEmbeddedBroker } from "../apps/server/src/platform/mqtt/embedded-broker";
import type { ReportSink } from "../apps/server/src/platform/mqtt/reports";
import { seedBenchAccount } from "./bench-account";
import { openBenchStore } from "./bench-store";
import { cpuMs, DatabaseCpu, machineBusyMs } from "./cpu";
import { BackendSampler, type BackendWaits, describeWaits } from "./pg-waits";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 200);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 40);
const here = path.dirname(fileURLToPath(import.meta.url));
const silent = { info() {}, warn() {}, error() {} };

/** The naive path: every report on its own, one transaction with single-row statements, no batching. */
function naiveSink(database: Database, devices: Map<string, { id: string; domain_id: string }>): ReportSink {
  return {
    waitForRoom: async () => {},
    async submit(report: ParsedReport) {
      if (report.kind !== "collect") return;
      const device = devices.get(report.ident);
      if (!device) return;
      const now = new Date();
      const data = collectData(report.message);
      await database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("device_collects")
          .values({
            device_id: device.id,
            domain_id: device.domain_id,
            type: report.collectType,
            data: toJsonb(data),
            seq: report.message.seq,
            create_time: now,
          })
          .onConflict((oc) =>
            oc
              .columns(["device_id", "type"])
              .doUpdateSet({ data: toJsonb(data), seq: report.message.seq, create_time: now }),
          )
          .execute();
        await trx
          .insertInto("collect_history")
          .values({
            domain_id: device.domain_id,
            device_id: device.id,
            type: report.collectType,
            seq: report.message.seq,
            changes: toJsonb(data),
            create_time: now,
          })
          .execute();
        await trx.updateTable("devices").set({ last_contact: now }).where("id", "=", device.id).execute();
      });
    },
  };
}

function storedSummary(latencies: number[]): Result["stored"] {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN };
}

/** The app's HTTP side on the pipeline's database and bus, and one browser socket in a child process. */
async function openBrowserSocket(
  database: Database,
  bus: ReturnType<typeof createInProcessBus>,
  account: { username: string; password: string },
): Promise<{ latencies: () => Promise<number[]>; close: () => Promise<void> }> {
  const config = { ...loadConfig({ LOG_LEVEL: "silent", SIMULATE: "0" }), loginRateLimit: 1_000_000 };
  const app = await buildApp({ config, database, bus });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const client: ChildProcess = fork(path.join(here, "realtime-clients.ts"), [], {
    execArgv: ["--import", "tsx"],
  });
  const reply = (type: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const onMessage = (message: Record<string, unknown>) => {
        if (message.type !== type) return;
        client.off("message", onMessage);
        resolve(message);
      };
      client.on("message", onMessage);
    });
  await reply("ready");
  client.send({
    type: "open",
    baseUrls: [baseUrl],
    username: account.username,
    password: account.password,
    pageSize: 10,
    sockets: [{ node: 0, device: null, whole: true }],
  });
  const opened = await reply("opened");
  if (opened.error) throw new Error(String(opened.error));
  return {
    latencies: async () => {
      // The last batch's push is on its way to the socket.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      client.send({ type: "stats" });
      return ((await reply("stats")).collectLatencies as number[]) ?? [];
    },
    close: async () => {
      client.send({ type: "stop" });
      await app.close();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Result {
  engine: string;
  path: "batched" | "naive";
  acked: number;
  storedRows: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  samples: number;
  /** Reports the load generator sent that were not acknowledged when it stopped. */
  inflightAtClose: number;
  /** CPU ms per acknowledged report: the server (broker + ingest), the load generator, the rest (the database, the OS). */
  cpu: { server: number; load: number; postgres: number; rest: number };
  /** Report (its `ts`, set as the router sends it) to committed (the pipeline resolved it), ms. */
  stored: { p50: number; p99: number; max: number };
  /** The bench database's backends sampled during the run (PostgreSQL only). */
  waits: BackendWaits | null;
}

async function runOnce(engine: "pglite" | "postgres", mode: "batched" | "naive"): Promise<Result> {
  const store = await openBenchStore(engine, "ingestbench");
  const { db } = store.database;
  await migrateToLatest(db);
  const account = await seedBenchAccount(db);
  const domainId = account.domainId;
  const fleet = Array.from({ length: DEVICES }, (_, i) => ({
    id: randomUUID(),
    ident: `BENCH${String(i + 1).padStart(6, "0")}`,
    key: randomBytes(32).toString("hex").toUpperCase(),
  }));
  await db
    .insertInto("devices")
    .values(
      fleet.map((d) => ({
        id: d.id,
        domain_id: domainId,
        ident: d.ident,
        aes_key: d.key,
        tags: "[]",
        meta: "{}",
      })),
    )
    .execute();

  const bus = createInProcessBus();
  const socket = mode === "batched" ? await openBrowserSocket(store.database, bus, account) : null;
  const pipeline =
    mode === "batched"
      ? createIngestPipeline(
          { db, bus, now: () => new Date(), log: silent },
          JSON.parse(process.env.BENCH_INGEST_OPTIONS ?? "{}"),
        )
      : null;
  const inner =
    pipeline ??
    naiveSink(store.database, new Map(fleet.map((d) => [d.ident, { id: d.id, domain_id: domainId }])));
  // Report→stored: from the report's `ts` (the load generator's clock, this machine's) to the moment
  // its batch committed and submit() resolved, before the PUBACK goes out.
  const storedLatencies: number[] = [];
  const sink: ReportSink = {
    waitForRoom: () => inner.waitForRoom(),
    async submit(report: ParsedReport) {
      await inner.submit(report);
      storedLatencies.push(Date.now() - report.message.ts);
    },
  };
  const counters = new GatewayCounters(silent);
  const broker = await startEmbeddedBroker({
    port: 0,
    host: "127.0.0.1",
    authenticate: createDeviceAuthenticator(db),
    isAllowed: isDeviceAccessAllowed,
    sink,
    counters,
  });

  const load = fork(
    path.join(here, "ingest-load.ts"),
    [`mqtt://127.0.0.1:${broker.port}`, String(SECONDS), String(WINDOW)],
    // A --cpu-prof of this process profiles the server side only.
    { execArgv: process.execArgv.filter((arg) => !arg.startsWith("--cpu-prof")) },
  );
  load.send(fleet.map(({ ident, key }) => ({ ident, key })));
  const busyBefore = machineBusyMs();
  const postgresCpu = store.url ? await DatabaseCpu.open(store.url) : null;
  await postgresCpu?.start();
  const sampler = store.url ? await BackendSampler.start(store.url) : null;
  const serverBefore = process.cpuUsage();
  type Outcome = { sent: number; acked: number; failed: number; elapsedMs: number; cpu: NodeJS.CpuUsage };
  const outcome = await new Promise<Outcome>((resolve, reject) => {
    load.once("message", (m) => resolve(m as Outcome));
    load.once("exit", (code) =>
      code === 0 ? undefined : reject(new Error(`load generator exited ${code}`)),
    );
  });
  await pipeline?.close();
  const latencies = (await socket?.latencies()) ?? [];
  await socket?.close();
  const serverMs = cpuMs(process.cpuUsage(serverBefore));
  const busyMs = machineBusyMs() - busyBefore;
  const postgresMs = (await postgresCpu?.sample()) ?? 0;
  await postgresCpu?.close();
  const waits = (await sampler?.stop()) ?? null;
  const loadMs = cpuMs(outcome.cpu);
  await broker.close();
  await bus.close();
  // A collect is stored as a history row, an event (BENCH_EVENT_EVERY) as an events row.
  const storedCount = (
    await sql<{
      n: string;
    }>`select (select count(*) from collect_history) + (select count(*) from events) as n`.execute(db)
  ).rows[0] ?? { n: "0" };
  await store.drop();
  latencies.sort((a, b) => a - b);
  const seconds = outcome.elapsedMs / 1000;
  return {
    engine,
    path: mode,
    acked: outcome.acked,
    storedRows: Number(storedCount.n),
    seconds,
    perSecond: Math.round(outcome.acked / seconds),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    samples: latencies.length,
    inflightAtClose: outcome.sent - outcome.acked,
    cpu: {
      server: serverMs / outcome.acked,
      load: loadMs / outcome.acked,
      postgres: postgresMs / outcome.acked,
      rest: (busyMs - serverMs - loadMs - postgresMs) / outcome.acked,
    },
    stored: storedSummary(storedLatencies),
    waits,
  };
}

const results: Result[] = [];
const engines = (process.env.BENCH_ENGINES ?? "pglite,postgres").split(",") as Array<"pglite" | "postgres">;
console.log(
  `ingest benchmark: ${cpus().length} cores, ${DEVICES} devices × ${WINDOW} in flight, ${SECONDS} s a run`,
);
for (const engine of engines) {
  for (const mode of (process.env.BENCH_PATHS ?? "batched,naive").split(",") as Array<"batched" | "naive">) {
    const result = await runOnce(engine, mode);
    results.push(result);
    const loss = result.acked - Math.min(result.acked, result.storedRows);
    console.log(
      `${engine.padEnd(8)} ${mode.padEnd(7)} ${String(result.perSecond).padStart(6)} reports/s  acked ${result.acked}  stored ${result.storedRows}  lost ${loss}  in flight at close ${result.inflightAtClose}` +
        `  report→stored p50 ${result.stored.p50} ms p99 ${result.stored.p99} ms max ${result.stored.max} ms` +
        (mode === "batched"
          ? `  report→socket p50 ${result.p50} ms p99 ${result.p99} ms (${result.samples} pushes)`
          : "") +
        `  CPU µs/report: server ${(result.cpu.server * 1000).toFixed(0)}, load ${(result.cpu.load * 1000).toFixed(0)}, PostgreSQL ${(result.cpu.postgres * 1000).toFixed(0)}, rest ${(result.cpu.rest * 1000).toFixed(0)}`,
    );
    if (result.waits) console.log(`${" ".repeat(17)}${describeWaits(result.waits)}`);
  }
  const batched = results.find((r) => r.engine === engine && r.path === "batched");
  const naive = results.find((r) => r.engine === engine && r.path === "naive");
  if (batched && naive)
    console.log(`${engine.padEnd(8)} batched / naive = ${(batched.perSecond / naive.perSecond).toFixed(1)}×`);
}
