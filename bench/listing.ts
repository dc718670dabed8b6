// Listing benchmark: POST /api/devices/ over BENCH_DEVICES (100,000) devices in one domain, with
// filters, search, sorts and page sizes, from BENCH_CLIENTS (32) concurrent clients over HTTP against a
// listening server in a child process. Reports p50/p99 of the whole answer and of the first row (the
// first NDJSON line after the header), per engine.
// npm run bench:listing -w bench   (BENCH_ENGINES=postgres,pglite BENCH_REQUESTS BENCH_SECONDS BENCH_CLIENTS BENCH_DEVICES BENCH_DATABASE_URL)
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { machineBusyMs, postgresCpuMs } from "./cpu";

const ENGINES = (process.env.BENCH_ENGINES ?? "postgres,pglite").split(",").map((e) => e.trim());
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const PG_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const here = path.dirname(fileURLToPath(import.meta.url));
/** BENCH_PROFILE=dir writes a V8 CPU profile of the server into dir. */
const PROFILE_DIR = process.env.BENCH_PROFILE;

/** The request mix: each client walks it from its own starting point. */
const SCENARIOS: [string, Record<string, unknown>][] = [
  ["default page", {}],
  ["status online, 50", { status: ["online"], size: 50 }],
  ["status critical by time", { status: ["critical"], sort: { field: "time", order: "desc" } }],
  ["tag", { tags: ["kazan"] }],
  ["two tags, 50", { tags: ["kazan", "pumps"], size: 50 }],
  ["model, 100", { model: ["RUTX11"], size: 100 }],
  ["search description", { search: "pump" }],
  ["search ident", { search: "BENCH00123" }],
  ["sort signal desc, page 5, 100", { sort: { field: "signal", order: "desc" }, size: 100, page: 5 }],
  ["warning + tag", { status: ["warning"], tags: ["kazan"] }],
  ["events with, by events", { events: "with", sort: { field: "events", order: "desc" }, size: 50 }],
  ["page 100 of 100", { page: 100, size: 100 }],
  ["signal + mode + backups", { signal: ["cellEdge"], network_mode: ["LTE"], backups: true }],
];

interface Sample {
  scenario: string;
  totalMs: number;
  firstRowMs: number | null;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** Keep-alive connections, one per client, as browsers keep theirs: no connect per request. */
const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/**
 * One list request: the time to the end of the first row line (after the header), and to the end.
 * node:http rather than fetch: fetch's web streams cost the load generator about 1 ms of CPU a request
 * on this machine, CPU the server under test then lacks.
 */
function timedList(
  baseUrl: string,
  token: string,
  body: Record<string, unknown>,
): Promise<Omit<Sample, "scenario">> {
  const start = performance.now();
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}/api/devices/`,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload), token },
      },
      (response) => {
        let newlines = 0;
        let firstRowMs: number | null = null;
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => {
          if (response.statusCode !== 200) chunks.push(chunk);
          if (firstRowMs !== null) return;
          for (let i = chunk.indexOf(10); i !== -1 && newlines < 2; i = chunk.indexOf(10, i + 1)) newlines++;
          if (newlines >= 2) firstRowMs = performance.now() - start;
        });
        response.on("end", () => {
          if (response.statusCode !== 200) {
            reject(new Error(`HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString()}`));
          } else resolve({ totalMs: performance.now() - start, firstRowMs });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

async function runLoad(
  baseUrl: string,
  tokens: string[],
  requests: number,
  label: string,
  clients = CLIENTS,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const deadline = performance.now() + MAX_SECONDS * 1000;
  let issued = 0;
  const client = async (index: number) => {
    let step = index;
    while (issued < requests && performance.now() < deadline) {
      issued++;
      const [scenario, body] = SCENARIOS[step++ % SCENARIOS.length] ?? ["default page", {}];
      samples.push({ scenario, ...(await timedList(baseUrl, tokens[index] ?? "", body)) });
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
  const seconds = (performance.now() - start) / 1000;
  console.log(
    `  ${label}: ${samples.length} requests in ${seconds.toFixed(1)} s (${(samples.length / seconds).toFixed(0)} req/s)`,
  );
  return samples;
}

function summarise(samples: Sample[]) {
  const totals = samples.map((s) => s.totalMs);
  const firsts = samples.map((s) => s.firstRowMs).filter((v): v is number => v !== null);
  return {
    requests: samples.length,
    p50: percentile(totals, 50),
    p99: percentile(totals, 99),
    firstRowP50: percentile(firsts, 50),
    firstRowP99: percentile(firsts, 99),
  };
}

async function startServer(engine: string): Promise<{
  baseUrl: string;
  tokens: string[];
  seedMs: number;
  cpuMs: () => Promise<number>;
  stop: () => Promise<void>;
}> {
  let cleanup = async () => {};
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_DEVICES: String(DEVICES) };
  if (engine === "postgres") {
    const name = `cf_bench_listing_${randomBytes(4).toString("hex")}`;
    const admin = async (statement: string) => {
      const client = new pg.Client({ connectionString: PG_URL });
      await client.connect();
      await client.query(statement).finally(() => client.end());
    };
    await admin(`create database "${name}"`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    env.BENCH_PG_URL = url.toString();
    cleanup = () => admin(`drop database "${name}" with (force)`);
  } else {
    const dir = mkdtempSync(path.join(tmpdir(), "cellfleet-bench-listing-"));
    env.BENCH_PGLITE_DIR = dir;
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const child = fork(path.join(here, "listing-server.ts"), [], {
    env,
    execArgv: ["--import", "tsx", ...(PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [])],
    stdio: "inherit",
  });
  const ready = await new Promise<{ port: number; username: string; password: string; seedMs: number }>(
    (resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error("the server did not start within 10 minutes")),
        600_000,
      );
      child.once("message", (message) => {
        clearTimeout(timer);
        resolve(message as { port: number; username: string; password: string; seedMs: number });
      });
      child.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
    },
  );
  const baseUrl = `http://127.0.0.1:${ready.port}`;
  // One session per client, as 32 people would have: each request touches its session row.
  const tokens: string[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    const login = await fetch(`${baseUrl}/api/login/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: ready.username, password: ready.password }),
    });
    tokens.push(((await login.json()) as { token: string }).token);
  }
  return {
    baseUrl,
    tokens,
    seedMs: ready.seedMs,
    cpuMs: () =>
      new Promise<number>((resolve) => {
        const onMessage = (message: unknown) => {
          const cpu = (message as { cpu?: NodeJS.CpuUsage }).cpu;
          if (!cpu) return;
          child.off("message", onMessage);
          resolve((cpu.user + cpu.system) / 1000);
        };
        child.on("message", onMessage);
        child.send("cpu");
      }),
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.send("stop");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
      await cleanup();
    },
  };
}

async function timedFacets(baseUrl: string, token: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const response = await fetch(`${baseUrl}/api/devices/`, {
      method: "POST",
      headers: { "content-type": "application/json", token },
      body: JSON.stringify({ facets: true }),
    });
    await response.text();
    times.push(performance.now() - start);
  }
  return times;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(
  `Listing benchmark: ${DEVICES} devices, ${CLIENTS} clients, ${cpus().length} CPUs, ${new Date().toISOString()}`,
);
for (const engine of ENGINES) {
  const requests = Number(process.env.BENCH_REQUESTS ?? (engine === "pglite" ? 1000 : 5000));
  console.log(`\n${engine}: seeding and starting…`);
  const server = await startServer(engine);
  try {
    console.log(`  seeded ${DEVICES} devices in ${(server.seedMs / 1000).toFixed(1)} s`);
    await runLoad(server.baseUrl, server.tokens, Math.min(requests, CLIENTS * SCENARIOS.length), "warm-up");
    const single = await runLoad(server.baseUrl, server.tokens, SCENARIOS.length * 10, "one client", 1);
    const one = summarise(single);
    console.log(
      `  one client: p50 ${fmt(one.p50)}, p99 ${fmt(one.p99)}; first row p50 ${fmt(one.firstRowP50)}`,
    );
    const loadBefore = loadavg()[0] ?? 0;
    const cpuBefore = await server.cpuMs();
    const busyBefore = machineBusyMs();
    const postgresBefore = postgresCpuMs();
    const loadGenBefore = process.cpuUsage();
    const samples = await runLoad(server.baseUrl, server.tokens, requests, "measured");
    const loadGen = process.cpuUsage(loadGenBefore);
    const busyPerRequest = (machineBusyMs() - busyBefore) / samples.length;
    const postgresPerRequest = (postgresCpuMs() - postgresBefore) / samples.length;
    const cpuPerRequest = ((await server.cpuMs()) - cpuBefore) / samples.length;
    const loadGenPerRequest = (loadGen.user + loadGen.system) / 1000 / samples.length;
    console.log(
      `  CPU per request: server (Node) ${fmt(cpuPerRequest)}, load generator ${fmt(loadGenPerRequest)}, ` +
        `PostgreSQL ${fmt(postgresPerRequest)}, the rest (the OS, other processes) ` +
        `${fmt(busyPerRequest - cpuPerRequest - loadGenPerRequest - postgresPerRequest)}; machine ${fmt(busyPerRequest)}`,
    );
    console.log(
      `  machine load average (1 min) before / after: ${loadBefore.toFixed(1)} / ${(loadavg()[0] ?? 0).toFixed(1)}`,
    );
    const all = summarise(samples);
    console.log(
      `  all: p50 ${fmt(all.p50)}, p99 ${fmt(all.p99)}; first row p50 ${fmt(all.firstRowP50)}, p99 ${fmt(all.firstRowP99)}`,
    );
    console.log("  | scenario | n | p50 | p99 | first row p50 | first row p99 |");
    for (const [scenario] of SCENARIOS) {
      const s = summarise(samples.filter((sample) => sample.scenario === scenario));
      console.log(
        `  | ${scenario} | ${s.requests} | ${fmt(s.p50)} | ${fmt(s.p99)} | ${fmt(s.firstRowP50)} | ${fmt(s.firstRowP99)} |`,
      );
    }
    const facets = await timedFacets(server.baseUrl, server.tokens[0] ?? "");
    console.log(
      `  facets over all devices, one client: p50 ${fmt(percentile(facets, 50))}, max ${fmt(Math.max(...facets))}`,
    );
  } finally {
    await server.stop();
  }
}
agent.destroy();
