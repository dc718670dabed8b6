import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import {
  type OwnBusServer,
  startOwnNatsServer,
  startOwnRedisServer,
  waitFor,
} from "./bus-servers.test-support";
import {
  call,
  freshDatabase,
  makeDomainWithAdmin,
  type Node,
  nextDevicesMessage,
  onCleanup,
  openReadySocket,
  runCleanups,
  serverUrl,
  startNode,
} from "./two-nodes.test-support";

// Two whole server nodes lose their bus server (SIGKILL) and get it back on the same port: neither
// node crashes or stops answering, each says so once in its log, saves made during the outage still
// succeed (their pushes are dropped, not queued), and afterwards a save on one node reaches a socket
// that was open on the other all along, without a page reload. bus-outage.test.ts checks the same
// on bare bus objects, with the memory bound measured.

afterAll(runCleanups);

/** How many lines of the node's log start with `message`. */
function countLogLines(node: Node, message: string): number {
  return node
    .output()
    .split("\n")
    .filter((line) => line.includes(`"msg":"${message}`)).length;
}

async function isHealthy(node: Node): Promise<boolean> {
  return (await fetch(`${node.base}/api/health`)).ok;
}

describe.skipIf(!serverUrl).each([
  { bus: "NATS", start: () => startOwnNatsServer() },
  { bus: "Redis", start: () => startOwnRedisServer() },
])("two server nodes through an outage of their $bus bus", ({ start }) => {
  it("keep serving, log it once, and carry pushes again once the bus is back", {
    timeout: 120_000,
  }, async () => {
    const busServer: OwnBusServer = await start();
    onCleanup(() => busServer.stop());
    const databaseUrl = await freshDatabase();
    const options = { smtpUrl: "smtp://127.0.0.1:1", runsJobs: true };
    const [a, b] = await Promise.all([
      startNode("A", databaseUrl, busServer.url, options),
      startNode("B", databaseUrl, busServer.url, options),
    ]);
    const { adminToken } = await makeDomainWithAdmin(b);
    const watcher = await openReadySocket(a, adminToken);
    const ident = `OUTAGE${randomBytes(4).toString("hex").toUpperCase()}`;
    const created = await call(b, "/api/devices/new", adminToken, { ident, description: "before" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    await nextDevicesMessage(watcher, ident);

    await busServer.stop();
    await waitFor(
      () => countLogLines(a, "bus connection lost") === 1 && countLogLines(b, "bus connection lost") === 1,
      15_000,
      "both nodes to log the lost bus",
    );
    // During the outage both nodes answer, and a save succeeds: the push it makes is dropped.
    for (const node of [a, b]) expect(await isHealthy(node)).toBe(true);
    const during = await call(b, `/api/device/${created.body._id}/edit`, adminToken, {
      description: "during the outage",
    });
    expect(during.status, JSON.stringify(during.body)).toBe(200);

    await busServer.start();
    await waitFor(
      () =>
        countLogLines(a, "bus connection is back") === 1 && countLogLines(b, "bus connection is back") === 1,
      30_000,
      "both nodes to log the bus back",
    );
    // The socket opened on A before the outage hears of a save made on B after it.
    const after = await call(b, `/api/device/${created.body._id}/edit`, adminToken, {
      description: "after the outage",
    });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    let update = await nextDevicesMessage(watcher, ident);
    // A push from the edit during the outage could only arrive if it had been queued; skip none.
    expect(update).not.toMatchObject({ content: [{ description: "during the outage" }] });
    while ((update.content as Array<{ description?: string }>)[0]?.description !== "after the outage")
      update = await nextDevicesMessage(watcher, ident);
    expect(watcher.ws.readyState).toBe(watcher.ws.OPEN);
    for (const node of [a, b]) {
      expect(await isHealthy(node)).toBe(true);
      expect(countLogLines(node, "bus connection lost")).toBe(1);
    }
  });
});
