// One server node of bench/realtime.ts, a child process with its own event loop, wired as main.ts
// wires a node: the app (HTTP + the realtime socket) and, with BENCH_ROLE=all, the device side
// (embedded MQTT broker + ingest) on PostgreSQL at BENCH_PG_URL, the bus from BENCH_BUS_URL (NATS for
// two nodes) or in-process. With BENCH_SEED=1 it migrates and seeds BENCH_ROUTERS routers with one
// key in one domain and an admin; otherwise it joins a seeded database. It answers
// { port, mqttPort, username, password, domainId } over IPC, and "stats" with its CPU, memory and the
// event-loop stalls (timer drift past BENCH_STALL_MS) since the previous "stats".
import type { AddressInfo } from "node:net";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { sql } from "kysely";
import { buildApp } from "../apps/server/src/app";
import { type DeviceSide, startDeviceSide } from "../apps/server/src/device-side";
import { createBus } from "../apps/server/src/platform/bus/create-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import { openDatabase } from "../apps/server/src/platform/db/database";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { createSilentLogger } from "../apps/server/src/platform/log";
import { type BenchAccount, seedBenchAccount } from "./bench-account";

const pgUrl = process.env.BENCH_PG_URL ?? "";
const role = process.env.BENCH_ROLE ?? "all";
const routers = Number(process.env.BENCH_ROUTERS ?? 1000);
const stallMs = Number(process.env.BENCH_STALL_MS ?? 100);
const BENCH_ROUTER_KEY = "0123456789ABCDEF".repeat(4);

const database = openDatabase({ kind: "postgres", url: pgUrl, maxConnections: 10 });
const { db } = database;

async function seed(): Promise<BenchAccount> {
  await migrateToLatest(db);
  const account = await seedBenchAccount(db);
  await sql`
    insert into devices (id, domain_id, ident, aes_key, tags, meta)
    select gen_random_uuid()::text, ${account.domainId}, 'RT' || lpad(g::text, 7, '0'), ${BENCH_ROUTER_KEY}, '[]'::jsonb, '{}'::jsonb
    from generate_series(1, ${routers}) as g`.execute(db);
  await sql`vacuum analyze devices`.execute(db);
  return account;
}

const seeded: BenchAccount | null = process.env.BENCH_SEED === "1" ? await seed() : null;

const log = createSilentLogger();
const config = {
  ...loadConfig({
    LOG_LEVEL: "silent",
    MQTT_PORT: "0",
    SIMULATE: "0",
    DEVICE_SIDE: role === "all" ? "1" : "0",
    ...(process.env.BENCH_BUS_URL ? { BUS_URL: process.env.BENCH_BUS_URL } : {}),
  }),
  loginRateLimit: 1_000_000,
  databaseUrl: pgUrl,
  busPrefix: process.env.BENCH_BUS_PREFIX ?? "cellfleet",
};
const bus = await createBus(config, log);
let deviceSide: DeviceSide | undefined;
const app = await buildApp({
  config,
  database,
  bus,
  logger: log,
  mqttStats: () => deviceSide?.stats() ?? null,
  gatewayPort: () => null,
});
if (config.deviceSide) {
  deviceSide = await startDeviceSide(config, {
    db,
    bus,
    now: () => new Date(),
    log,
    jobs: app.jobs,
    hooks: app.hooks,
    refusals: app.refusals,
  });
  app.deviceLink.attach(deviceSide.ingest.gateway);
}
await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;

// Event-loop stalls: a 10 ms timer's lateness past BENCH_STALL_MS, and the loop delay histogram.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let stalls = { count: 0, totalMs: 0, maxMs: 0 };
let expected = performance.now() + 10;
setInterval(() => {
  const now = performance.now();
  const late = now - expected;
  if (late > stallMs) {
    stalls.count += 1;
    stalls.totalMs += late;
    stalls.maxMs = Math.max(stalls.maxMs, late);
  }
  expected = now + 10;
}, 10).unref();

process.send?.({
  type: "ready",
  port,
  mqttPort: deviceSide?.ingest.gateway.mode === "embedded" ? deviceSide.ingest.gateway.port : null,
  ...seeded,
});

process.on("message", async (message: { type: string }) => {
  if (message.type === "stats") {
    process.send?.({
      type: "stats",
      cpu: process.cpuUsage(),
      rss: process.memoryUsage().rss,
      stalls,
      delayP99Ms: delay.percentile(99) / 1e6,
      delayMaxMs: delay.max / 1e6,
      ingest: deviceSide?.ingest.ingest.stats() ?? null,
    });
    stalls = { count: 0, totalMs: 0, maxMs: 0 };
    delay.reset();
  } else if (message.type === "stop") {
    await app.close();
    await deviceSide?.close();
    await bus.close();
    await database.close();
    process.exit(0);
  }
});
