// Fleet benchmark (issue 17): idle router connections per gateway process, 100,000 spread over
// several gateway processes, and sustained reporting, against the server's own device side on
// PostgreSQL. Gateways are bench/fleet-gateway.ts, routers bench/fleet-load.ts (raw MQTT sockets).
// npm run bench:fleet -w bench
//   BENCH_FLEET=idle     BENCH_CONNECTIONS=5000,10000,18000   one gateway, N idle routers, 60 s idle
//   BENCH_FLEET=spread   BENCH_SPREAD_TOTAL=100000 BENCH_SPREAD_GATEWAYS=6   N routers over G gateways,
//                        each gateway's routers from their own loopback source address (127.0.0.2 …)
//   BENCH_FLEET=report   BENCH_ROUTERS=18000 BENCH_GATEWAYS=1 BENCH_INTERVAL_MS=10000 BENCH_SECONDS=300
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { openBenchStore } from "./bench-store";
import { cpuMs, DatabaseCpu, machineBusyMs } from "./cpu";

const MODE = process.env.BENCH_FLEET ?? "idle";
const KEY = "0123456789ABCDEF".repeat(4);
const here = path.dirname(fileURLToPath(import.meta.url));
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 60);

type Message = Record<string, unknown> & { type: string };

function child(file: string, args: string[], execArgv: string[] = []): ChildProcess {
  return fork(path.join(here, file), args, { execArgv: ["--import", "tsx", ...execArgv], stdio: "inherit" });
}
function next(proc: ChildProcess, type: string): Promise<Message> {
  return new Promise((resolve) => {
    const onMessage = (message: Message) => {
      if (message.type !== type) return;
      proc.off("message", onMessage);
      resolve(message);
    };
    proc.on("message", onMessage);
  });
}
async function ask(proc: ChildProcess, type: string, extra: object = {}, answer = type): Promise<Message> {
  const reply = next(proc, answer);
  proc.send({ type, ...extra });
  return reply;
}
/** Kernel memory of all TCP sockets on the machine (both ends of each loopback connection), MB. */
function tcpMemoryMb(): number {
  const pages = /TCP:.* mem (\d+)/.exec(readFileSync("/proc/net/sockstat", "utf8"))?.[1];
  return (Number(pages) * 4096) / 1024 / 1024;
}
const mb = (bytes: number) => bytes / 1024 / 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const store = await openBenchStore("postgres", "fleet");
const db = store.database.db;
await migrateToLatest(db);
const domainId = randomUUID();
await db
  .insertInto("domains")
  .values({ id: domainId, name: `fleet_${domainId.slice(0, 8)}` })
  .execute();
const total =
  MODE === "idle"
    ? Math.max(...(process.env.BENCH_CONNECTIONS ?? "5000,10000,18000").split(",").map(Number))
    : MODE === "spread"
      ? Number(process.env.BENCH_SPREAD_TOTAL ?? 100_000)
      : Number(process.env.BENCH_ROUTERS ?? 18_000);
await sql`
  insert into devices (id, domain_id, ident, aes_key, tags, meta)
  select gen_random_uuid()::text, ${domainId}, 'FLT' || lpad(g::text, 7, '0'), ${KEY}, '[]'::jsonb, '{}'::jsonb
  from generate_series(1, ${total}) as g`.execute(db);
await sql`vacuum analyze devices`.execute(db);
const idents = Array.from({ length: total }, (_, i) => `FLT${String(i + 1).padStart(7, "0")}`);
const databaseUrl = (await sql<{ url: string }>`select current_database() as url`.execute(db)).rows[0]?.url;
const pgUrl = new URL(process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
pgUrl.pathname = `/${databaseUrl}`;
// PostgreSQL's CPU: the backends of this database only, not every postgres process (bench/cpu.ts).
const postgresCpu = await DatabaseCpu.open(pgUrl.toString());
console.log(
  `fleet: ${total} routers seeded; ${cpus().length} cores, load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);

async function startGateway(): Promise<{ proc: ChildProcess; port: number }> {
  const proc = child("fleet-gateway.ts", [pgUrl.toString(), "0", domainId], ["--expose-gc"]);
  const ready = await next(proc, "ready");
  return { proc, port: ready.port as number };
}
async function startLoad(port: number, source: string): Promise<ChildProcess> {
  const proc = child("fleet-load.ts", [`mqtt://127.0.0.1:${port}`, source]);
  await next(proc, "ready");
  return proc;
}
async function stop(procs: ChildProcess[]): Promise<void> {
  await Promise.all(
    procs.map(
      (proc) =>
        new Promise<void>((resolve) => {
          proc.once("exit", () => resolve());
          proc.send({ type: "stop" });
        }),
    ),
  );
}

if (MODE === "idle") {
  for (const n of (process.env.BENCH_CONNECTIONS ?? "5000,10000,18000").split(",").map(Number)) {
    const gateway = await startGateway();
    const load = await startLoad(gateway.port, "127.0.0.1");
    await sleep(2000);
    const before = await ask(gateway.proc, "stats");
    const connected = await ask(load, "connect", { idents: idents.slice(0, n), key: KEY }, "connected");
    await sleep(5000);
    const settled = await ask(gateway.proc, "stats");
    const busy0 = machineBusyMs();
    await sleep(IDLE_SECONDS * 1000);
    const after = await ask(gateway.proc, "stats");
    const busy = machineBusyMs() - busy0;
    const loadStats = await ask(load, "stats");
    const perConn = (key: "rss" | "heapUsed") =>
      ((after[key] as number) - (before[key] as number)) / n / 1024;
    const idleCpu = cpuMs(after.cpu as NodeJS.CpuUsage) - cpuMs(settled.cpu as NodeJS.CpuUsage);
    console.log(
      JSON.stringify({
        mode: "idle",
        connections: after.connections,
        connected: connected.connected,
        refused: connected.refused,
        connectSeconds: (connected.ms as number) / 1000,
        connectCpuMsPerRouter:
          (cpuMs(settled.cpu as NodeJS.CpuUsage) - cpuMs(before.cpu as NodeJS.CpuUsage)) / n,
        gatewayRssMb: mb(after.rss as number),
        baselineRssMb: mb(before.rss as number),
        rssKbPerConnection: perConn("rss"),
        heapKbPerConnection: perConn("heapUsed"),
        idleCpuPercentOfCore: (idleCpu / (IDLE_SECONDS * 1000)) * 100,
        idleCpuUsPerConnectionPerSecond: ((idleCpu / IDLE_SECONDS) * 1000) / n,
        machineBusyPercent: (busy / (IDLE_SECONDS * 1000 * cpus().length)) * 100,
        loadRssMb: mb(loadStats.rss as number),
        load: loadavg()[0],
      }),
    );
    await stop([load, gateway.proc]);
  }
} else {
  const gateways =
    MODE === "spread"
      ? Number(process.env.BENCH_SPREAD_GATEWAYS ?? 6)
      : Number(process.env.BENCH_GATEWAYS ?? 1);
  const per = Math.ceil(total / gateways);
  const nodes = await Promise.all(Array.from({ length: gateways }, () => startGateway()));
  const loads = await Promise.all(nodes.map((node, i) => startLoad(node.port, `127.0.0.${i + 2}`)));
  const snapshot = async () => Promise.all(nodes.map((node) => ask(node.proc, "stats")));
  const sum = (stats: Message[], key: string) => stats.reduce((total, s) => total + (s[key] as number), 0);
  const cpuSum = (stats: Message[]) => stats.reduce((total, s) => total + cpuMs(s.cpu as NodeJS.CpuUsage), 0);
  await sleep(2000);
  const before = await snapshot();
  const started = Date.now();
  const busyConnect0 = machineBusyMs();
  await postgresCpu.start();
  const connected = await Promise.all(
    loads.map((load, i) =>
      ask(load, "connect", { idents: idents.slice(i * per, (i + 1) * per), key: KEY }, "connected"),
    ),
  );
  const connectMs = Date.now() - started;
  const pgConnectMs = await postgresCpu.sample();
  const busyConnect = machineBusyMs() - busyConnect0;
  const n = connected.reduce((s, c) => s + (c.connected as number), 0);
  console.log(
    `connected ${n} (refused ${connected.reduce((s, c) => s + (c.refused as number), 0)}) in ${(connectMs / 1000).toFixed(0)} s, load ${loadavg()[0].toFixed(1)}`,
  );
  await sleep(5000);
  const settled = await snapshot();
  const busy0 = machineBusyMs();
  const idleStarted = Date.now();
  await sleep(IDLE_SECONDS * 1000);
  const idle = await snapshot();
  const idleMs = Date.now() - idleStarted;
  const busy = machineBusyMs() - busy0;
  const loadIdle = await Promise.all(loads.map((load) => ask(load, "stats")));
  const idleCpu = cpuSum(idle) - cpuSum(settled);
  console.log(
    JSON.stringify({
      mode: MODE,
      gateways,
      routers: n,
      connections: idle.map((s) => s.connections),
      connectSeconds: connectMs / 1000,
      connectPerSecond: Math.round(n / (connectMs / 1000)),
      connectCpuMsPerRouter: (cpuSum(settled) - cpuSum(before)) / n,
      connectPostgresCpuMsPerRouter: pgConnectMs / n,
      connectMachineBusyPercent: (busyConnect / (connectMs * cpus().length)) * 100,
      gatewayRssMb: idle.map((s) => Math.round(mb(s.rss as number))),
      totalGatewayRssMb: Math.round(mb(sum(idle, "rss"))),
      totalGatewayPssMb: Math.round(mb(sum(idle, "pss"))),
      baselineGatewayRssMb: Math.round(mb(sum(before, "rss"))),
      rssKbPerRouter: (sum(idle, "rss") - sum(before, "rss")) / n / 1024,
      heapKbPerRouter: (sum(idle, "heapUsed") - sum(before, "heapUsed")) / n / 1024,
      idleCpuPercentOfCore: (idleCpu / idleMs) * 100,
      idleCpuUsPerRouterPerSecond: ((idleCpu / (idleMs / 1000)) * 1000) / n,
      idleMachineBusyPercent: (busy / (idleMs * cpus().length)) * 100,
      loadRssMb: Math.round(mb(sum(loadIdle, "rss"))),
      closedWhileIdle: sum(loadIdle, "closed"),
      kernelTcpMb: tcpMemoryMb(),
      load: loadavg().map((l) => Math.round(l * 10) / 10),
    }),
  );
  // Phases of one run, `interval ms:seconds` each (BENCH_PHASES, default every 10 s for 5 minutes).
  const phases = (process.env.BENCH_PHASES ?? "10000:300")
    .split(",")
    .map((phase) => phase.split(":").map(Number));
  for (const [intervalMs = 10_000, seconds = 300] of MODE === "report" ? phases : []) {
    const cpu0 = {
      gateways: (await snapshot()).map((s) => cpuMs(s.cpu as NodeJS.CpuUsage)),
      pg: await postgresCpu.start(),
      busy: machineBusyMs(),
    };
    const history0 = Number(
      (await sql<{ n: string }>`select count(*) as n from collect_history`.execute(db)).rows[0]?.n,
    );
    const before = await Promise.all(loads.map((load) => ask(load, "stats")));
    const sentBefore = before.reduce((sum, s) => sum + (s.sent as number), 0);
    const ackedBefore = before.reduce((sum, s) => sum + (s.acked as number), 0);
    for (const load of loads) load.send({ type: "report", intervalMs, seconds });
    const latencies: number[] = [];
    const t0 = Date.now();
    while (Date.now() - t0 < seconds * 1000) {
      await sleep(10_000);
      for (const s of await snapshot()) latencies.push(...(s.latencies as number[]));
      const l = await Promise.all(loads.map((load) => ask(load, "stats")));
      const acked = l.reduce((sum, s) => sum + (s.acked as number), 0);
      console.log(
        `  ${((Date.now() - t0) / 1000).toFixed(0)} s: acked ${acked} (${(acked / ((Date.now() - t0) / 1000)).toFixed(0)}/s), p99 so far ${percentile(latencies, 99)} ms, load ${loadavg()[0].toFixed(1)}`,
      );
    }
    await sleep(5000);
    const end = await snapshot();
    for (const s of end) latencies.push(...(s.latencies as number[]));
    const l = await Promise.all(loads.map((load) => ask(load, "stats")));
    const sent = l.reduce((sum, s) => sum + (s.sent as number), 0) - sentBefore;
    const acked = l.reduce((sum, s) => sum + (s.acked as number), 0) - ackedBefore;
    const history =
      Number((await sql<{ n: string }>`select count(*) as n from collect_history`.execute(db)).rows[0]?.n) -
      history0;
    const gatewayCpu = end.reduce(
      (sum, s, i) => sum + cpuMs(s.cpu as NodeJS.CpuUsage) - (cpu0.gateways[i] ?? 0),
      0,
    );
    console.log(
      JSON.stringify({
        mode: "report",
        routers: total,
        gateways,
        intervalMs,
        seconds,
        sent,
        acked,
        failed: l.reduce((sum, s) => sum + (s.failed as number), 0),
        closed: l.reduce((sum, s) => sum + (s.closed as number), 0),
        historyRows: history,
        lost: acked - Math.min(acked, history),
        rate: acked / seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        samples: latencies.length,
        gatewayCpuUsPerReport: (gatewayCpu * 1000) / acked,
        postgresCpuUsPerReport: ((await postgresCpu.sample()) * 1000) / acked,
        machineBusyPercent: ((machineBusyMs() - cpu0.busy) / ((Date.now() - t0) * cpus().length)) * 100,
        gatewayRssMb: end.map((s) => Math.round(mb(s.rss as number))),
        load: loadavg()[0],
      }),
    );
  }
  await stop([...loads, ...nodes.map((node) => node.proc)]);
}
await postgresCpu.close();
await store.drop();
