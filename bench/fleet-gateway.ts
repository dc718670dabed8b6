// One gateway process of bench/fleet.ts: the server's device side (embedded broker, device
// authentication, ingest) on PostgreSQL, as a server node runs it. Usage: fleet-gateway.ts <database
// url> <port> <domain id>. Answers IPC "stats" with its memory, CPU, open connections, ingest counters
// and the report→socket latencies (now − device time of each collect pushed to the domain's topic).
import { readFileSync } from "node:fs";
import { startDeviceIngest } from "../apps/server/src/modules/ingest/ingest.runtime";
import { domainTopic } from "../apps/server/src/platform/bus/bus";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { openDatabase } from "../apps/server/src/platform/db/database";

const [url = "", portText = "0", domainId = ""] = process.argv.slice(2);
const silent = { info() {}, warn() {}, error() {} };
const database = openDatabase({ kind: "postgres", url, maxConnections: 6 });
const bus = createInProcessBus();
let latencies: number[] = [];
bus.subscribe(domainTopic(domainId), (message) => {
  const { type, content } = message as { type?: string; content?: Array<{ device_time?: number | null }> };
  if (type !== "collects") return;
  const now = Date.now();
  for (const item of content ?? [])
    if (typeof item.device_time === "number") latencies.push(now - item.device_time);
});
const runtime = await startDeviceIngest({
  db: database.db,
  bus,
  now: () => new Date(),
  log: silent,
  mqttUrl: undefined,
  mqttPort: Number(portText),
  host: "0.0.0.0",
});
/** Proportional set size (shared pages split between the processes that map them), bytes. */
function pss(): number {
  const line = /^Pss:\s+(\d+) kB/m.exec(readFileSync("/proc/self/smaps_rollup", "utf8"));
  return line ? Number(line[1]) * 1024 : Number.NaN;
}
process.on("message", (message: { type: string }) => {
  if (message.type === "stats") {
    global.gc?.();
    const memory = process.memoryUsage();
    process.send?.({
      type: "stats",
      rss: memory.rss,
      pss: pss(),
      heapUsed: memory.heapUsed,
      external: memory.external,
      cpu: process.cpuUsage(),
      connections: runtime.gateway.stats().connections,
      ingest: runtime.ingest.stats(),
      latencies,
    });
    latencies = [];
  } else if (message.type === "stop") {
    void runtime
      .close()
      .then(() => database.close())
      .then(() => process.exit(0));
  }
});
process.send?.({ type: "ready", port: runtime.gateway.port });
