// The device export over 100,000 devices (issue 14): POST /api/devices/export against the seeded
// server of bench/bench-server.ts (its own process), timed to the first byte and to the end, while
// the server's resident memory is sampled from /proc every 5 ms. A streamed export holds one keyset
// page (CSV_EXPORT_CHUNK rows) at a time, so the server's memory should not grow with the file; a
// slow reader checks that the stream waits for the client (backpressure) instead of buffering.
//
// npm run bench:export -w bench   (BENCH_ENGINES=postgres,pglite BENCH_DEVICES BENCH_EXPORT_RUNS
// BENCH_EXPORT_HEAP_MB BENCH_DATABASE_URL)
import { readFileSync } from "node:fs";
import { benchToken, startBenchServer } from "./bench-server";

const ENGINES = (process.env.BENCH_ENGINES ?? "postgres,pglite").split(",").map((e) => e.trim()) as Array<
  "postgres" | "pglite"
>;
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const RUNS = Number(process.env.BENCH_EXPORT_RUNS ?? 3);
/** A V8 old-space limit for the server (MB): an export that held its list would run out of it. */
const HEAP_LIMIT_MB = process.env.BENCH_EXPORT_HEAP_MB;

/** Resident set size of a process in MB (VmRSS), or its high-water mark (VmHWM). */
function memoryMb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

interface Run {
  label: string;
  firstByteMs: number;
  totalMs: number;
  rows: number;
  mb: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  heapBeforeMb: number;
  heapPeakMb: number;
}

async function exportOnce(
  server: { heapUsedMb: () => Promise<number> },
  baseUrl: string,
  token: string,
  pid: number,
  label: string,
  body: object,
  pauseMsPerChunk = 0,
): Promise<Run> {
  const rssBeforeMb = memoryMb(pid, "VmRSS");
  const heapBeforeMb = await server.heapUsedMb();
  let rssPeakMb = rssBeforeMb;
  let heapPeakMb = heapBeforeMb;
  let isSampling = true;
  const sampler = setInterval(() => {
    rssPeakMb = Math.max(rssPeakMb, memoryMb(pid, "VmRSS"));
  }, 5);
  // The heap is asked over IPC, one question at a time (a few per 100 ms).
  const heapSampler = (async () => {
    while (isSampling) {
      heapPeakMb = Math.max(heapPeakMb, await server.heapUsedMb());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/devices/export`, {
    method: "POST",
    headers: { "content-type": "application/json", token },
    body: JSON.stringify(body),
  });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let firstByteMs = 0;
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    if (bytes === 0) firstByteMs = performance.now() - started;
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) newlines++;
    if (pauseMsPerChunk > 0) await new Promise((resolve) => setTimeout(resolve, pauseMsPerChunk));
  }
  const totalMs = performance.now() - started;
  clearInterval(sampler);
  isSampling = false;
  await heapSampler;
  rssPeakMb = Math.max(rssPeakMb, memoryMb(pid, "VmRSS"));
  return {
    label,
    firstByteMs,
    totalMs,
    rows: newlines - 1,
    mb: bytes / 1024 / 1024,
    rssBeforeMb,
    rssPeakMb,
    heapBeforeMb,
    heapPeakMb,
  };
}

for (const engine of ENGINES) {
  console.log(`\n${engine}: seeding ${DEVICES} devices and starting…`);
  const server = await startBenchServer({
    engine,
    devices: DEVICES,
    name: "cf_bench_export",
    execArgv: HEAP_LIMIT_MB ? [`--max-old-space-size=${HEAP_LIMIT_MB}`] : [],
  });
  try {
    const pid = server.pid as number;
    const token = await benchToken(server);
    console.log(
      `seeded in ${(server.seedMs / 1000).toFixed(1)} s; server RSS ${memoryMb(pid, "VmRSS").toFixed(0)} MB`,
    );
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++)
      runs.push(await exportOnce(server, server.baseUrl, token, pid, `all #${i + 1}`, {}));
    runs.push(await exportOnce(server, server.baseUrl, token, pid, "status online", { status: ["online"] }));
    runs.push(await exportOnce(server, server.baseUrl, token, pid, "all, slow reader", {}, 2));
    console.log(
      "| export | rows | MB | first byte ms | total ms | RSS before MB | RSS peak MB | heap before MB | heap peak MB |",
    );
    console.log("|---|--:|--:|--:|--:|--:|--:|--:|--:|");
    for (const run of runs) {
      console.log(
        `| ${run.label} | ${run.rows} | ${run.mb.toFixed(1)} | ${run.firstByteMs.toFixed(0)} | ${run.totalMs.toFixed(0)} | ${run.rssBeforeMb.toFixed(0)} | ${run.rssPeakMb.toFixed(0)} | ${run.heapBeforeMb.toFixed(0)} | ${run.heapPeakMb.toFixed(0)} |`,
      );
    }
  } finally {
    await server.stop();
  }
}
