// The server side of the history benchmark, run as a child process so the client that times the
// answers does not share its event loop (as bench/listing-server.ts): opens the database the parent
// seeded (BENCH_PG_URL), builds the app as main.ts does with HISTORY_RAW_DAYS and a clock frozen at
// BENCH_NOW (ms; the end of the seeded month, so every run reads the same buckets), listens on a free
// port and tells the parent { port } over IPC. "cpu" answers its CPU time; "stop" closes it.
import type { AddressInfo } from "node:net";
import { buildApp } from "../apps/server/src/app";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { loadConfig } from "../apps/server/src/platform/config";
import { openDatabase } from "../apps/server/src/platform/db/database";

const pgUrl = process.env.BENCH_PG_URL;
if (!pgUrl) throw new Error("BENCH_PG_URL is required");
const frozen = new Date(Number(process.env.BENCH_NOW ?? Date.now()));

const database = openDatabase({ kind: "postgres", url: pgUrl, maxConnections: 10 });
const config = {
  ...loadConfig({ LOG_LEVEL: "silent", HISTORY_RAW_DAYS: process.env.HISTORY_RAW_DAYS ?? "7" }),
  loginRateLimit: 1_000_000,
};
const app = await buildApp({ config, database, bus: createInProcessBus(), now: () => frozen });
await app.listen({ port: 0, host: "127.0.0.1" });
const { port } = app.server.address() as AddressInfo;
process.send?.({ port });

process.on("message", async (message) => {
  if (message === "cpu") process.send?.({ cpu: process.cpuUsage() });
  if (message === "stop") {
    await app.close();
    await database.close();
    process.exit(0);
  }
});
