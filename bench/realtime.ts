// Realtime benchmark (issue 28): open consoles while routers report. Server nodes are child processes
// (bench/realtime-server.ts: the app + embedded broker + ingest, as main.ts wires a node) on a fresh
// PostgreSQL database; routers are raw MQTT sockets (bench/fleet-load.ts, paced, QoS 1, at most
// BENCH_MAX_INFLIGHT unacknowledged each); browsers are raw WebSocket clients
// (bench/realtime-clients.ts) that sign in over HTTP and subscribe as apps/web does. Each case runs
// on its own server and database, one after another in one run, so the baseline sits beside it.
// npm run bench:realtime -w bench
//   BENCH_SOCKETS=10,1000        the cases: open sockets per case (a fifth, at least 1, on the list's
//                                first page, BENCH_LIST_SHARE=0.2; the rest on device pages)
//   BENCH_LAYOUTS=one            the server layouts each socket count runs on, in this order:
//                                one: one node (ingest + sockets, in-process bus);
//                                split: an ingest node and a socket-serving node (DEVICE_SIDE=0) over
//                                the bus, the sockets all on the second (ADR 036);
//                                two: two nodes over the bus, the sockets spread over both, ingest on
//                                the first
//   BENCH_BUS_URL=nats://127.0.0.1:4222   the bus of the layouts with two nodes
//   BENCH_RATE=5000 BENCH_ROUTERS=1000 BENCH_SECONDS=30 BENCH_WARMUP_SECONDS=5 BENCH_PAGE_SIZE=100
//   BENCH_CLIENT_PROCS=2         processes the sockets are spread over
//   BENCH_FANOUT                 passed to the nodes as REALTIME_FANOUT (ADR 036)
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { BENCH_PG_URL } from "./bench-store";
import { cpuMs, machineBusyMs } from "./cpu";

const here = path.dirname(fileURLToPath(import.meta.url));
const CASES = (process.env.BENCH_SOCKETS ?? "10,1000").split(",").map(Number);
type Layout = "one" | "split" | "two";
const LAYOUTS = (process.env.BENCH_LAYOUTS ?? "one").split(",") as Layout[];
const BUS_URL = process.env.BENCH_BUS_URL ?? "nats://127.0.0.1:4222";
const RATE = Number(process.env.BENCH_RATE ?? 5000);
const ROUTERS = Number(process.env.BENCH_ROUTERS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const PAGE_SIZE = Number(process.env.BENCH_PAGE_SIZE ?? 100);
const LIST_SHARE = Number(process.env.BENCH_LIST_SHARE ?? 0.2);
const CLIENT_PROCS = Number(process.env.BENCH_CLIENT_PROCS ?? 2);
const KEY = "0123456789ABCDEF".repeat(4);

type Message = Record<string, unknown> & { type: string };

function child(file: string, args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return fork(path.join(here, file), args, {
    // BENCH_CPU_PROF=dir: each server node writes a V8 CPU profile there when it exits.
    execArgv: [
      "--import",
      "tsx",
      ...(file === "realtime-server.ts" && process.env.BENCH_CPU_PROF
        ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
        : []),
    ],
    env: { ...process.env, ...env },
    stdio: "inherit",
  });
}
function next(proc: ChildProcess, type: string): Promise<Message> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Message) => {
      if (message.type !== type) return;
      proc.off("message", onMessage);
      proc.off("exit", onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`a child exited (${code}) before "${type}"`));
    proc.on("message", onMessage);
    proc.once("exit", onExit);
  });
}
async function ask(proc: ChildProcess, type: string, extra: object = {}, answer = type): Promise<Message> {
  const reply = next(proc, answer);
  proc.send({ type, ...extra });
  return reply;
}
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function admin(url: string, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client.query(statement).finally(() => client.end());
}
function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.send({ type: "stop" });
  const killer = setTimeout(() => proc.kill("SIGKILL"), 15_000);
  return exited.finally(() => clearTimeout(killer));
}

interface Stalls {
  count: number;
  maxMs: number;
  totalMs: number;
}

interface CaseResult {
  sockets: number;
  layout: Layout;
  load: [number, number, number];
  offered: number;
  kept: number;
  lost: number;
  inflightAtEnd: number;
  collect: { p50: number; p99: number; max: number; n: number };
  row: { p50: number; p99: number; n: number };
  bytesPerSocketSecond: number;
  framesPerSocketSecond: number;
  rereads: number;
  closedEarly: number;
  /** Per node, the ingest node first. */
  stalls: Stalls[];
  /** CPU time of each node in the window (the ingest node first), ms. */
  nodeCpuMs: number[];
  busy: number;
}

async function runCase(sockets: number, layout: Layout): Promise<CaseResult> {
  const nodeCount = layout === "one" ? 1 : 2;
  const load = loadavg() as [number, number, number];
  const database = `rt_bench_${randomBytes(4).toString("hex")}`;
  await admin(BENCH_PG_URL, `create database "${database}"`);
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${database}`;
  const nodeEnv = {
    BENCH_PG_URL: url.toString(),
    BENCH_ROUTERS: String(ROUTERS),
    ...(nodeCount > 1
      ? { BENCH_BUS_URL: BUS_URL, BENCH_BUS_PREFIX: `rtbench${randomBytes(3).toString("hex")}` }
      : {}),
    ...(process.env.BENCH_FANOUT ? { REALTIME_FANOUT: process.env.BENCH_FANOUT } : {}),
  };
  const children: ChildProcess[] = [];
  try {
    const first = child("realtime-server.ts", [], { ...nodeEnv, BENCH_SEED: "1", BENCH_ROLE: "all" });
    children.push(first);
    const ready = await next(first, "ready");
    const nodes = [first];
    const baseUrls = [`http://127.0.0.1:${ready.port}`];
    for (let n = 1; n < nodeCount; n++) {
      const node = child("realtime-server.ts", [], { ...nodeEnv, BENCH_ROLE: "sockets" });
      children.push(node);
      baseUrls.push(`http://127.0.0.1:${(await next(node, "ready")).port}`);
      nodes.push(node);
    }
    const ids = (await admin(url.toString(), "select id, ident from devices order by ident")).rows as Array<{
      id: string;
      ident: string;
    }>;

    const routers = child("fleet-load.ts", [`mqtt://127.0.0.1:${ready.mqttPort}`, "127.0.0.1"]);
    children.push(routers);
    await next(routers, "ready");
    const connected = await ask(
      routers,
      "connect",
      { idents: ids.map((row) => row.ident), key: KEY },
      "connected",
    );
    if (connected.connected !== ids.length) throw new Error(`routers: ${JSON.stringify(connected)}`);

    const listSockets = Math.max(1, Math.round(sockets * LIST_SHARE));
    const plan = Array.from({ length: sockets }, (_, i) => ({
      node: layout === "split" ? 1 : i % nodeCount,
      device: i < listSockets ? null : (ids[(i - listSockets) % ids.length]?.id ?? null),
    }));
    const procs = Math.min(CLIENT_PROCS, sockets);
    const clients = Array.from({ length: procs }, () => child("realtime-clients.ts", []));
    children.push(...clients);
    await Promise.all(clients.map((c) => next(c, "ready")));
    const opened = await Promise.all(
      clients.map((c, p) =>
        ask(
          c,
          "open",
          {
            baseUrls,
            username: ready.username,
            password: ready.password,
            pageSize: PAGE_SIZE,
            sockets: plan.filter((_, i) => i % procs === p),
          },
          "opened",
        ),
      ),
    );
    for (const o of opened) if (o.error) throw new Error(String(o.error));

    const intervalMs = (ROUTERS * 1000) / RATE;
    routers.send({ type: "report", intervalMs, seconds: WARMUP_SECONDS + SECONDS });
    await sleep(WARMUP_SECONDS * 1000);
    // The measured window starts here: every counter is read or reset.
    const loadBefore = await ask(routers, "stats");
    await Promise.all(clients.map((c) => ask(c, "mark", {}, "marked")));
    // The stats reset each node's stall counters; their CPU so far is the window's start.
    const cpuBefore = (await Promise.all(nodes.map((n) => ask(n, "stats")))).map(
      (s) => s.cpu as NodeJS.CpuUsage,
    );
    const busyBefore = machineBusyMs();
    await sleep(SECONDS * 1000);
    const loadAfter = await ask(routers, "stats");
    const busy = machineBusyMs() - busyBefore;
    const serverStats = await Promise.all(nodes.map((n) => ask(n, "stats")));
    // Pushes of the last reports still on their way count (latest-wins coalescing is 250 ms).
    await sleep(2000);
    const clientStats = await Promise.all(clients.map((c) => ask(c, "stats")));
    // Every report the routers sent is answered (or the wait gives up): then what was acknowledged
    // and not stored is lost, and what is still unanswered is printed as in flight at close.
    let end = await ask(routers, "stats");
    for (let waited = 0; Number(end.inflight) > 0 && waited < 30_000; waited += 500) {
      await sleep(500);
      end = await ask(routers, "stats");
    }
    await sleep(1000);
    const stored = Number(
      (await admin(url.toString(), "select count(*) as n from collect_history")).rows[0]?.n ?? 0,
    );
    const collectLatencies = clientStats.flatMap((s) => s.collectLatencies as number[]).sort((a, b) => a - b);
    const rowLatencies = clientStats.flatMap((s) => s.rowLatencies as number[]).sort((a, b) => a - b);
    const sum = (key: string) => clientStats.reduce((total, s) => total + Number(s[key]), 0);
    const stalls = serverStats.map((s) => s.stalls as Stalls);
    const sent = Number(loadAfter.sent) - Number(loadBefore.sent);
    const skipped = Number(loadAfter.skipped) - Number(loadBefore.skipped);
    const acked = Number(loadAfter.acked) - Number(loadBefore.acked);
    return {
      sockets,
      layout,
      load,
      offered: (sent + skipped) / SECONDS,
      kept: acked / SECONDS,
      lost: Number(end.acked) - stored,
      inflightAtEnd: Number(end.inflight),
      collect: {
        p50: percentile(collectLatencies, 50),
        p99: percentile(collectLatencies, 99),
        max: collectLatencies.at(-1) ?? Number.NaN,
        n: collectLatencies.length,
      },
      row: { p50: percentile(rowLatencies, 50), p99: percentile(rowLatencies, 99), n: rowLatencies.length },
      bytesPerSocketSecond: sum("bytes") / sockets / SECONDS,
      framesPerSocketSecond: sum("frames") / sockets / SECONDS,
      rereads: sum("rereads"),
      closedEarly: sum("closedEarly"),
      stalls,
      nodeCpuMs: serverStats.map(
        (s, n) => cpuMs(s.cpu as NodeJS.CpuUsage) - cpuMs(cpuBefore[n] as NodeJS.CpuUsage),
      ),
      busy,
    };
  } finally {
    for (const proc of children.reverse()) await stop(proc).catch(() => undefined);
    await admin(BENCH_PG_URL, `drop database if exists "${database}" with (force)`).catch(() => undefined);
  }
}

console.log(
  `realtime benchmark: ${cpus().length} cores, layouts ${LAYOUTS.join(", ")} (two nodes over ${BUS_URL}), ${ROUTERS} routers offering ${RATE} reports/s, ${SECONDS} s measured after ${WARMUP_SECONDS} s, list page ${PAGE_SIZE} rows${process.env.BENCH_FANOUT ? `, REALTIME_FANOUT=${process.env.BENCH_FANOUT}` : ""}`,
);
const ms = (value: number) => (Number.isNaN(value) ? "–" : `${Math.round(value)} ms`);
for (const sockets of CASES)
  for (const layout of LAYOUTS) {
    const r = await runCase(sockets, layout);
    console.log(
      `${String(r.sockets).padStart(6)} sockets, ${r.layout.padEnd(5)} (load ${r.load.map((l) => l.toFixed(2)).join(" ")}): ` +
        `kept ${Math.round(r.kept)}/s of ${Math.round(r.offered)}/s offered (${((100 * r.kept) / r.offered).toFixed(1)}%), lost ${r.lost}, routers' in flight at close ${r.inflightAtEnd}\n` +
        `        report→socket (collects, at the device-page sockets) p50 ${ms(r.collect.p50)} p99 ${ms(r.collect.p99)} max ${ms(r.collect.max)} (${r.collect.n} pushes); ` +
        `stamped row→socket (list sockets) p50 ${ms(r.row.p50)} p99 ${ms(r.row.p99)} (${r.row.n})\n` +
        `        per socket ${(r.bytesPerSocketSecond / 1024).toFixed(1)} KB/s, ${r.framesPerSocketSecond.toFixed(1)} frames/s; rereads ${r.rereads}, closed early ${r.closedEarly}; ` +
        `event-loop stalls > ${process.env.BENCH_STALL_MS ?? 100} ms: ${r.stalls.map((st, n) => `${n === 0 ? "ingest node" : "socket node"} ${st.count} (max ${ms(st.maxMs)}, ${ms(st.totalMs)} in all)`).join(", ")}; ` +
        `CPU: ${r.nodeCpuMs.map((cpu, n) => `${n === 0 ? "ingest node" : "socket node"} ${((100 * cpu) / (SECONDS * 1000)).toFixed(0)}% of a core${n === 0 && r.kept > 0 ? ` (${Math.round((1000 * cpu) / (r.kept * SECONDS))} µs a kept report)` : ""}`).join(", ")}, machine busy ${((100 * r.busy) / (SECONDS * 1000 * cpus().length)).toFixed(0)}%`,
    );
  }
