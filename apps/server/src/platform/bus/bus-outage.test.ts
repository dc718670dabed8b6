import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import type { NetworkBus } from "./bus-link";
import {
  type OwnBusServer,
  startOwnNatsServer,
  startOwnRedisServer,
  uniqueBusPrefix,
  waitFor,
} from "./bus-servers.test-support";
import { createNatsBus } from "./nats-bus";
import { createRedisBus } from "./redis-bus";

// The bus server vanishes (SIGKILL) and comes back on the same port: the buses survive, say so once
// in the log with the password masked, drop what is published meanwhile instead of holding it, and
// carry messages again afterwards on the subscriptions they had.

const PASSWORD = "bus-secret-Pa55";
const OUTAGE_PUBLISHES = 5000;
const MESSAGE = { type: "collects", content: [{ data: "x".repeat(10_000) }] };

interface Kind {
  name: string;
  start(): Promise<OwnBusServer>;
  open(url: string, prefix: string, log: pino.Logger): NetworkBus;
  separator: "." | ":";
}

const KINDS: Kind[] = [
  {
    name: "NATS",
    start: () => startOwnNatsServer(PASSWORD),
    open: (url, prefix, log) => createNatsBus({ url, prefix, log }),
    separator: ".",
  },
  {
    name: "Redis",
    start: () => startOwnRedisServer(PASSWORD),
    open: (url, prefix, log) => createRedisBus({ url, prefix, log }),
    separator: ":",
  },
];

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A logger whose lines the test reads. */
function capturingLogger(): { log: pino.Logger; lines: Array<{ level: number; msg: string; url?: string }> } {
  const lines: Array<{ level: number; msg: string; url?: string }> = [];
  const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe.each(KINDS)("a $name bus through an outage of its server", (kind) => {
  it("survives, drops publishes while away, and delivers again after the server is back", {
    timeout: 30_000,
  }, async () => {
    const server = await kind.start();
    cleanups.push(() => server.stop());
    const prefix = uniqueBusPrefix(kind.separator);
    const a = capturingLogger();
    const b = capturingLogger();
    const nodeA = kind.open(server.url, prefix, a.log);
    const nodeB = kind.open(server.url, prefix, b.log);
    cleanups.push(async () => {
      await nodeA.close();
      await nodeB.close();
    });
    expect(await nodeA.waitUntilConnected(5000)).toBe(true);
    expect(await nodeB.waitUntilConnected(5000)).toBe(true);

    const onB: unknown[] = [];
    nodeB.subscribe("domain:outage", (message) => onB.push(message));
    await waitFor(
      () => {
        void nodeA.publish("domain:outage", "before");
        return onB.length > 0;
      },
      5000,
      "the subscription before the outage",
    );

    await server.stop();
    await waitFor(() => !nodeA.stats().isConnected && !nodeB.stats().isConnected, 5000, "both to notice");

    // Publishing through the outage neither throws nor holds the messages: each is counted as dropped,
    // and the heap does not grow by anything near the 50 MB published.
    const droppedBefore = nodeA.stats().dropped;
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < OUTAGE_PUBLISHES; i++) await nodeA.publish("domain:outage", MESSAGE);
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    expect(nodeA.stats().dropped - droppedBefore).toBe(OUTAGE_PUBLISHES);
    expect(heapGrowth).toBeLessThan(20 * 1024 * 1024);

    await server.start();
    await waitFor(() => nodeA.stats().isConnected && nodeB.stats().isConnected, 15_000, "both to reconnect");
    onB.length = 0;
    // The subscription made before the outage carries messages again, in both directions.
    const onA: unknown[] = [];
    nodeA.subscribe("domain:outage", (message) => onA.push(message));
    await waitFor(
      () => {
        void nodeA.publish("domain:outage", "after");
        return onB.includes("after");
      },
      5000,
      "a message after the outage",
    );
    await nodeB.publish("domain:outage", "from B");
    await waitFor(() => onA.includes("from B"), 5000, "B's message on A");
    expect(onB).not.toContainEqual(MESSAGE);

    for (const { lines } of [a, b]) {
      const lost = lines.filter((line) => line.msg.startsWith("bus connection lost"));
      const back = lines.filter((line) => line.msg.startsWith("bus connection is back"));
      expect(lost).toHaveLength(1);
      expect(back).toHaveLength(1);
      expect(lost[0]?.url).toContain("***");
      expect(JSON.stringify(lines)).not.toContain(PASSWORD);
    }
    expect(nodeA.stats().outages).toBe(1);
  });
});
