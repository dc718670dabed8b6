// The device list's event counts per user (ADR 025), one client at a time: the list requests that
// read a router's event count (sorted by it, filtered by it, the facet), each timed over HTTP against
// the seeded listing server (bench/listing-server.ts, BENCH_DEVICES routers, one routers in
// BENCH_EVENTS_EVERY with events). Pages are timed with the list's shared totals warm (as most
// requests are); totals and facets are also timed cold, each after the ListCountCache window
// passed. Run the same file against two builds to compare them.
import { loadavg } from "node:os";
import { benchToken, startBenchServer } from "./bench-server";
import { KeepAliveClient } from "./http-load";

const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const COLD = Number(process.env.BENCH_COLD ?? 5);
/** Twice the list count cache's window: a total or facets asked after it is counted again. */
const COLD_GAP_MS = 4100;

const PAGES: [string, Record<string, unknown>][] = [
  ["default page (control)", {}],
  ["events with, by events", { events: "with", sort: { field: "events", order: "desc" }, size: 50 }],
  ["all, by events desc", { sort: { field: "events", order: "desc" }, size: 50 }],
  ["all, by events asc, page 60 of 100", { sort: { field: "events", order: "asc" }, size: 100, page: 60 }],
  ["events without", { events: "without", size: 50 }],
];

const COUNTS: [string, Record<string, unknown>][] = [
  ["total of events with (cold)", { events: "with", size: 10 }],
  ["facets over all (cold)", { facets: true, size: 10 }],
];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const server = await startBenchServer({ engine: "postgres", devices: DEVICES, name: "cf_bench_events" });
try {
  const token = await benchToken(server);
  const client = new KeepAliveClient(server.baseUrl);
  const timed = async (body: Record<string, unknown>) => {
    const answer = await client.postJson("/api/devices/", { token }, body);
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
    return answer.totalMs;
  };
  console.log(
    `Event counts: ${DEVICES} devices, seeded in ${(server.seedMs / 1000).toFixed(1)} s; load average ${loadavg()
      .map((v) => v.toFixed(1))
      .join(" ")}`,
  );
  for (const [, body] of PAGES) await timed(body);
  const samples = new Map<string, number[]>(PAGES.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, body] of PAGES) samples.get(name)?.push(await timed(body));
  }
  const cold = new Map<string, number[]>(COUNTS.map(([name]) => [name, []]));
  for (let i = 0; i < COLD; i++) {
    for (const [name, body] of COUNTS) {
      await new Promise((resolve) => setTimeout(resolve, COLD_GAP_MS));
      cold.get(name)?.push(await timed(body));
    }
  }
  console.log("| request | n | p50 ms | p90 ms |");
  for (const [name, values] of [...samples, ...cold]) {
    console.log(
      `| ${name} | ${values.length} | ${percentile(values, 50).toFixed(1)} | ${percentile(values, 90).toFixed(1)} |`,
    );
  }
  console.log(`load average after: ${loadavg()[0]?.toFixed(1)}`);
  client.close();
} finally {
  await server.stop();
}
