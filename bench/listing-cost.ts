// What one list request costs, per scenario of the listing mix, without queueing: one client, one
// request at a time, against the seeded server (bench/bench-server.ts) with a pool of one connection
// (BENCH_POOL=1 by default here), so every statement of a request runs on one PostgreSQL backend. For
// each scenario: BENCH_COST_RUNS (400) requests after 30 of warm-up; the CPU of the bench database's
// own backends (bench/cpu.ts, DatabaseCpu) and of the server per request, and the wall time p50/p99.
// npm run bench:listing-cost -w bench   (BENCH_DEVICES BENCH_COST_RUNS BENCH_POOL BENCH_DATABASE_URL)
import { loadavg } from "node:os";
import { benchToken, startBenchServer } from "./bench-server";
import { DatabaseCpu } from "./cpu";
import { KeepAliveClient } from "./http-load";
import { percentile, SCENARIOS } from "./listing-scenarios";

process.env.BENCH_POOL ??= "1";
const RUNS = Number(process.env.BENCH_COST_RUNS ?? 400);
const DEVICES = Number(process.env.BENCH_DEVICES ?? 100_000);

console.log(
  `Listing cost per request: ${DEVICES} devices, pool ${process.env.BENCH_POOL}, ${RUNS} runs a scenario, ` +
    `${new Date().toISOString()}, load ${loadavg()[0]?.toFixed(1)}`,
);
const server = await startBenchServer({ engine: "postgres", devices: DEVICES, name: "cf_bench_cost" });
try {
  const token = await benchToken(server);
  const client = new KeepAliveClient(server.baseUrl);
  const database = await DatabaseCpu.open(server.databaseUrl ?? "");
  const list = async (body: Record<string, unknown>) => {
    const answer = await client.postJson("/api/devices/", { token }, body);
    if (answer.status !== 200) throw new Error(`HTTP ${answer.status}: ${answer.body}`);
    return answer.totalMs;
  };
  console.log("| scenario | PostgreSQL ms | server ms | p50 ms | p99 ms |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  let postgresSum = 0;
  let serverSum = 0;
  for (const [scenario, body] of SCENARIOS) {
    for (let i = 0; i < 30; i++) await list(body);
    const times: number[] = [];
    await database.start();
    const server0 = await server.cpuMs();
    for (let i = 0; i < RUNS; i++) times.push(await list(body));
    const postgres = (await database.sample()) / RUNS;
    const node = ((await server.cpuMs()) - server0) / RUNS;
    postgresSum += postgres;
    serverSum += node;
    console.log(
      `| ${scenario} | ${postgres.toFixed(2)} | ${node.toFixed(2)} | ${percentile(times, 50).toFixed(2)} | ${percentile(times, 99).toFixed(2)} |`,
    );
  }
  console.log(
    `| **mean** | **${(postgresSum / SCENARIOS.length).toFixed(2)}** | **${(serverSum / SCENARIOS.length).toFixed(2)}** | | |`,
  );
  console.log(`load average (1 min) at the end: ${loadavg()[0]?.toFixed(1)}`);
  client.close();
  await database.close();
} finally {
  await server.stop();
}
