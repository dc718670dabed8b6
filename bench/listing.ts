// Listing benchmark: POST /api/devices/ over BENCH_DEVICES (100,000) devices in one domain, with
// filters, search, sorts and page sizes, from BENCH_CLIENTS (32) concurrent clients over HTTP against a
// listening server in a child process. Reports p50/p99 of the whole answer and of the first row (the
// first NDJSON line after the header), per engine: closed loop (each client sends its next request when
// its answer ends: the saturation figures) and open loop (each client on a Poisson schedule at
// BENCH_PACED_RATES requests a second in all).
// npm run bench:listing -w bench   (BENCH_ENGINES=postgres,pglite BENCH_REQUESTS BENCH_SECONDS BENCH_WARMUP_SECONDS BENCH_CLIENTS BENCH_DEVICES BENCH_PACED_RATES BENCH_PACED_SECONDS BENCH_CHANGES_PER_SECOND BENCH_DATABASE_URL)
import { cpus, loadavg } from "node:os";
import { benchToken, startBenchServer } from "./bench-server";
import { DatabaseCpu, machineBusyMs } from "./cpu";
import { KeepAliveClient } from "./http-load";
import { percentile, SCENARIOS } from "./listing-scenarios";

const ENGINES = (process.env.BENCH_ENGINES ?? "postgres,pglite").split(",").map((e) => e.trim()) as Array<
  "postgres" | "pglite"
>;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const MAX_SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
/**
 * How long the closed loop runs before it is measured: long enough for the JIT of both processes, the
 * pool's connections and every count and facet of the mix to settle (the first seconds run slower).
 */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** Total request rates of the open-loop passes (BENCH_PACED_RATES, comma-separated; empty: none). */
const PACED_RATES = (process.env.BENCH_PACED_RATES ?? "160,320")
  .split(",")
  .filter((rate) => rate.trim() !== "")
  .map(Number);
const PACED_SECONDS = Number(process.env.BENCH_PACED_SECONDS ?? 15);
/**
 * Edits a second made through the API while the closed loop runs (BENCH_CHANGES_PER_SECOND, 0 by
 * default): each one is a change of the domain, after which every page the server keeps is read
 * again (ADR 046), as while routers report.
 */
const CHANGES_PER_SECOND = Number(process.env.BENCH_CHANGES_PER_SECOND ?? 0);
/** BENCH_PROFILE=dir writes a V8 CPU profile of the server into dir. */
const PROFILE_DIR = process.env.BENCH_PROFILE;

interface Sample {
  scenario: string;
  totalMs: number;
  firstRowMs: number | null;
}

/** One of the clients: a signed-in person with their own session and keep-alive connection. */
interface Person {
  token: string;
  client: KeepAliveClient;
}

/**
 * One list request on the client's own keep-alive connection (as a browser keeps one): the time to
 * the end of the first row line (after the header), and to the end of the answer.
 */
async function timedList(person: Person, body: Record<string, unknown>): Promise<Omit<Sample, "scenario">> {
  const answer = await person.client.postJson("/api/devices/", { token: person.token }, body);
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
  return { totalMs: answer.totalMs, firstRowMs: answer.firstRowMs };
}

async function runLoad(
  people: Person[],
  requests: number,
  label: string,
  clients = CLIENTS,
  forSeconds = MAX_SECONDS,
): Promise<Sample[]> {
  const samples: Sample[] = [];
  const deadline = performance.now() + forSeconds * 1000;
  let issued = 0;
  const client = async (index: number) => {
    let step = index;
    while (issued < requests && performance.now() < deadline) {
      issued++;
      const [scenario, body] = SCENARIOS[step++ % SCENARIOS.length] ?? ["default page", {}];
      samples.push({ scenario, ...(await timedList(people[index] as Person, body)) });
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

/**
 * The open-loop pass: each client sends on its own Poisson schedule (`totalRate` / CLIENTS requests a
 * second on average), as people clicking do, rather than the moment its previous answer ends. A
 * request is timed from when it was due, not when it could leave, so a client held up by a slow
 * answer counts the wait (no coordinated omission).
 */
async function runPaced(people: Person[], totalRate: number, seconds: number): Promise<Sample[]> {
  const samples: Sample[] = [];
  const meanGapMs = (1000 * CLIENTS) / totalRate;
  const end = performance.now() + seconds * 1000;
  const client = async (index: number) => {
    let step = index;
    let dueAt = performance.now() + Math.random() * meanGapMs;
    while (dueAt < end) {
      const wait = dueAt - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const [scenario, body] = SCENARIOS[step++ % SCENARIOS.length] ?? ["default page", {}];
      const late = performance.now() - dueAt;
      const sample = await timedList(people[index] as Person, body);
      samples.push({
        scenario,
        totalMs: sample.totalMs + late,
        firstRowMs: sample.firstRowMs === null ? null : sample.firstRowMs + late,
      });
      dueAt += -Math.log(1 - Math.random()) * meanGapMs;
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
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

/** The seeded server, with one person and session per client, as 32 people would have. */
async function startServer(engine: "postgres" | "pglite") {
  process.env.BENCH_PEOPLE ??= String(CLIENTS);
  const server = await startBenchServer({
    engine,
    devices: DEVICES,
    name: "cf_bench_listing",
    execArgv: PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  });
  const people: Person[] = [];
  for (let i = 0; i < CLIENTS; i++) {
    // Each client its own person: what a viewer sees of their own (unread counts) is not shared.
    const token = await benchToken({
      ...server,
      username: server.usernames[i % server.usernames.length] as string,
    });
    people.push({ token, client: new KeepAliveClient(server.baseUrl) });
  }
  const stop = async () => {
    for (const person of people) person.client.close();
    await server.stop();
  };
  return { ...server, people, stop };
}

/** Five lists with facets over all devices from one client: the facets are streamed after the page. */
async function timedFacets(person: Person): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const answer = await person.client.postJson("/api/devices/", { token: person.token }, { facets: true });
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
    times.push(answer.totalMs);
  }
  return times;
}

/**
 * An administrator editing a router's description `perSecond` times a second, on its own connection,
 * until `stop` is called; answers how many edits were made.
 */
function startChanges(server: { baseUrl: string; people: Person[] }, perSecond: number) {
  let isStopped = false;
  let made = 0;
  const done = (async () => {
    if (perSecond <= 0) return;
    const editor = server.people[0] as Person;
    const client = new KeepAliveClient(server.baseUrl);
    try {
      const page = await fetch(`${server.baseUrl}/api/devices/`, {
        method: "POST",
        headers: { "content-type": "application/json", token: editor.token },
        body: JSON.stringify({ size: 100 }),
      });
      const ids = (await page.text())
        .split("\n")
        .slice(1)
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { _id: string })._id);
      const start = performance.now();
      while (!isStopped) {
        const id = ids[made % ids.length] as string;
        const answer = await client.postJson(
          `/api/device/${id}/edit`,
          { token: editor.token },
          {
            description: `bench edit ${made}`,
          },
        );
        if (answer.status !== 200) throw new Error(`edit: HTTP ${answer.status}: ${answer.body}`);
        made++;
        const wait = start + (made * 1000) / perSecond - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      }
    } finally {
      client.close();
    }
  })();
  return {
    async stop(): Promise<number> {
      isStopped = true;
      await done;
      return made;
    },
  };
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
console.log(
  `Listing benchmark: ${DEVICES} devices, ${CLIENTS} clients, ${cpus().length} CPUs, ${new Date().toISOString()}`,
);
for (const engine of ENGINES) {
  const requests = Number(process.env.BENCH_REQUESTS ?? (engine === "pglite" ? 1000 : 15_000));
  console.log(`\n${engine}: seeding and starting…`);
  const server = await startServer(engine);
  try {
    console.log(`  seeded ${DEVICES} devices in ${(server.seedMs / 1000).toFixed(1)} s`);
    await runLoad(server.people, Number.POSITIVE_INFINITY, "warm-up", CLIENTS, WARMUP_SECONDS);
    const single = await runLoad(server.people, SCENARIOS.length * 10, "one client", 1);
    const one = summarise(single);
    console.log(
      `  one client: p50 ${fmt(one.p50)}, p99 ${fmt(one.p99)}; first row p50 ${fmt(one.firstRowP50)}`,
    );
    const loadBefore = loadavg()[0] ?? 0;
    const cpuBefore = await server.cpuMs();
    const busyBefore = machineBusyMs();
    // PostgreSQL: the backends of the bench's own database only (bench/cpu.ts), not the machine's.
    // (On PGlite the database runs inside the server's process: its CPU is the server's.)
    const postgresCpu = server.databaseUrl ? await DatabaseCpu.open(server.databaseUrl) : null;
    await postgresCpu?.start();
    const loadGenBefore = process.cpuUsage();
    const changes = startChanges(server, CHANGES_PER_SECOND);
    const measuredStart = performance.now();
    const samples = await runLoad(server.people, requests, "measured");
    const loadGen = process.cpuUsage(loadGenBefore);
    if (CHANGES_PER_SECOND > 0) {
      const made = await changes.stop();
      const seconds = (performance.now() - measuredStart) / 1000;
      console.log(
        `  changes while measured: ${made} edits through the API (${(made / seconds).toFixed(1)} a second)`,
      );
    }
    const busyPerRequest = (machineBusyMs() - busyBefore) / samples.length;
    const postgresPerRequest = ((await postgresCpu?.sample()) ?? 0) / samples.length;
    await postgresCpu?.close();
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
    for (const rate of PACED_RATES) {
      const paced = summarise(await runPaced(server.people, rate, PACED_SECONDS));
      console.log(
        `  open loop, ${CLIENTS} clients sending ${rate} req/s in all (${(rate / CLIENTS).toFixed(1)} each): ` +
          `${paced.requests} requests, p50 ${fmt(paced.p50)}, p99 ${fmt(paced.p99)}; ` +
          `first row p50 ${fmt(paced.firstRowP50)}, p99 ${fmt(paced.firstRowP99)}`,
      );
    }
    const facets = await timedFacets(server.people[0] as Person);
    console.log(
      `  facets over all devices, one client: p50 ${fmt(percentile(facets, 50))}, max ${fmt(Math.max(...facets))}`,
    );
  } finally {
    await server.stop();
  }
}
