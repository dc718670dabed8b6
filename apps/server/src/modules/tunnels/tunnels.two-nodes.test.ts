import { randomBytes } from "node:crypto";
import type { TunnelSession } from "@cellfleet/contract";
import { VirtualRouter } from "@cellfleet/simulator";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  freshDatabase,
  makeDomainWithAdmin,
  type Node,
  onCleanup,
  runCleanups,
  serverUrl,
  startNode,
} from "../../platform/bus/two-nodes.test-support";
import { startOwnMosquitto } from "../broker-accounts/mosquitto-dynsec.test-support";
import { eventually } from "../ingest/ingest.test-support";
import { openTerminalAt } from "./tunnels.test-support";

// Remote access with several server nodes (issue 29, ADR 038): two processes on one PostgreSQL, one
// Mosquitto with a shared subscription, the NATS bus. Whichever node a browser's terminal lands on,
// that node tells the router (through the broker) to dial its own SSH endpoint, so both ends of a
// session meet on one node. PostgreSQL only, so it runs in the DATABASE_URL pass.

afterAll(runCleanups);

describe.skipIf(!serverUrl)("remote access across two server nodes", () => {
  it("opens a router's shell from a browser on either node", { timeout: 150_000 }, async () => {
    const broker = await startOwnMosquitto();
    onCleanup(() => broker.close());
    const databaseUrl = await freshDatabase();
    const env = (name: string) => ({
      MQTT_URL: broker.serverUrl,
      MQTT_SHARED_SUBSCRIPTION: "1",
      MQTT_DYNSEC: "1",
      MQTT_CLIENT_ID: `cellfleet-node-${name}-${randomBytes(3).toString("hex")}`,
      TUNNEL_SSH_PORT: "0",
      TUNNEL_SSH_HOST: "127.0.0.1",
    });
    const [a, b] = await Promise.all([
      startNode("A", databaseUrl, "nats://127.0.0.1:4222", {
        smtpUrl: "smtp://127.0.0.1:1",
        runsJobs: true,
        env: env("a"),
      }),
      startNode("B", databaseUrl, "nats://127.0.0.1:4222", {
        smtpUrl: "smtp://127.0.0.1:1",
        runsJobs: true,
        env: env("b"),
      }),
    ]);
    const { adminToken } = await makeDomainWithAdmin(a);

    // A router made on node A; its broker account comes through the jobs, then it connects.
    const ident = `RA${randomBytes(5).toString("hex").toUpperCase()}`;
    const key = randomBytes(32).toString("hex").toUpperCase();
    const created = await call(a, "/api/devices/new", adminToken, { ident, aes_key: key });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const deviceId = String(created.body._id);
    const router = new VirtualRouter({
      ident,
      key,
      url: broker.url,
      autoTick: false,
      reconnectPeriodMs: 200,
      commandDelayMs: 20,
    });
    onCleanup(() => router.stop());
    await router.start();
    await eventually(() => router.stats.connected, `${ident} connected`, 30_000);
    // The console knows it connected once a session may be asked for (else PEER_NOT_CONNECTED).
    let first: { status: number; body: Record<string, unknown> } | null = null;
    await eventually(
      async () => {
        first = await call(b, "/api/tunnels", adminToken, { device_id: deviceId, minutes: 10 });
        return first.status === 200;
      },
      "a session the router's connection allows",
      30_000,
    );

    for (const node of [b, a] as Node[]) {
      const opened =
        node === b && first
          ? (first as { status: number; body: Record<string, unknown> })
          : await call(node, "/api/tunnels", adminToken, { device_id: deviceId, minutes: 10 });
      expect(opened.status, JSON.stringify(opened.body)).toBe(200);
      const session = opened.body as unknown as TunnelSession;
      const terminal = await openTerminalAt(node.base, adminToken, session._id);
      await terminal.waitForOutput("~# ", 30_000);
      terminal.type(`echo via-node-${node.name}\r`);
      await terminal.waitForOutput(`via-node-${node.name}\r\n`, 20_000);
      terminal.close();
      await terminal.ended;
      // Recorded as ended by the node that carried it, whichever node is asked.
      const other = node === a ? b : a;
      await eventually(
        async () => {
          const list = await call(other, "/api/tunnels/list", adminToken, {});
          const items = (list.body.items ?? []) as TunnelSession[];
          return items.some((item) => item._id === session._id && item.state === "ended");
        },
        `session via ${node.name} ended`,
        20_000,
      );
    }
  });
});
