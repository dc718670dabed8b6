import { randomBytes } from "node:crypto";
import type { TunnelSession, WebTunnelOpen } from "@cellfleet/contract";
import { VirtualRouter } from "@cellfleet/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../platform/bus/bus-servers.test-support";
import {
  call,
  makeDomainWithAdmin,
  type Node,
  onCleanup,
  runCleanups,
  serverUrl,
} from "../../platform/bus/two-nodes.test-support";
import { startTwoNodesOnMosquitto } from "../broker-accounts/two-nodes-mosquitto.test-support";
import { eventually } from "../ingest/ingest.test-support";
import { openTerminalAt } from "./tunnels.test-support";
import { expectNotFound, signIn, testBrowser, upgradeEcho } from "./web-tunnel.test-support";

// Remote access with several server nodes (issue 29, ADR 038): two processes on one PostgreSQL, one
// Mosquitto with a shared subscription, the NATS bus. Whichever node a browser's terminal lands on,
// that node tells the router (through the broker) to dial its own SSH endpoint, so both ends of a
// session meet on one node. A web-interface session under a wildcard host (TUNNEL_WEB_HOST) may be
// sent by the front proxy to either node's listener: the node that does not hold it passes its
// requests to the one that does. PostgreSQL only, so it runs in the DATABASE_URL pass.

afterAll(runCleanups);

type Answer = { status: number; body: Record<string, unknown> };

describe.skipIf(!serverUrl)("remote access across two server nodes", () => {
  let a: Node;
  let b: Node;
  let adminToken: string;
  let deviceId: string;
  /** Each node's wildcard listener for web sessions (TUNNEL_WEB_PORTS of its own, one host here). */
  const webPorts = { a: 0, b: 0 };
  /** The first session asked for, once the router's connection allows one. */
  let first: Answer | null = null;

  beforeAll(async () => {
    webPorts.a = await freePort();
    webPorts.b = await freePort();
    const started = await startTwoNodesOnMosquitto((name) => ({
      TUNNEL_SSH_PORT: "0",
      TUNNEL_SSH_HOST: "127.0.0.1",
      TUNNEL_WEB_HOST: "*.tunnel.test",
      TUNNEL_WEB_PORTS: `${webPorts[name]}-${webPorts[name]}`,
    }));
    ({ a, b } = started);
    ({ adminToken } = await makeDomainWithAdmin(a));

    // A router made on node A; its broker account comes through the jobs, then it connects.
    const ident = `RA${randomBytes(5).toString("hex").toUpperCase()}`;
    const key = randomBytes(32).toString("hex").toUpperCase();
    const created = await call(a, "/api/devices/new", adminToken, { ident, aes_key: key });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    deviceId = String(created.body._id);
    const router = new VirtualRouter({
      ident,
      key,
      url: started.broker.url,
      autoTick: false,
      reconnectPeriodMs: 200,
      commandDelayMs: 20,
    });
    onCleanup(() => router.stop());
    await router.start();
    await eventually(() => router.stats.connected, `${ident} connected`, 60_000);
    // The console knows it connected once a session may be asked for (else PEER_NOT_CONNECTED).
    await eventually(
      async () => {
        first = await call(b, "/api/tunnels", adminToken, { device_id: deviceId, minutes: 10 });
        return first.status === 200;
      },
      "a session the router's connection allows",
      30_000,
    );
  }, 150_000);

  /** Waits until `node` lists session `id` as ended. */
  const endedOn = (node: Node, id: string, what: string) =>
    eventually(
      async () => {
        const list = await call(node, "/api/tunnels/list", adminToken, {});
        const items = (list.body.items ?? []) as TunnelSession[];
        return items.some((item) => item._id === id && item.state === "ended");
      },
      what,
      20_000,
    );

  it("opens a router's shell from a browser on either node", { timeout: 150_000 }, async () => {
    for (const node of [b, a]) {
      const opened =
        node === b && first
          ? first
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
      await endedOn(node === a ? b : a, session._id, `session via ${node.name} ended`);
    }
  });

  it("serves a web session under the wildcard host from either node's listener", {
    timeout: 120_000,
  }, async () => {
    for (const [holder, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const created = await call(holder, "/api/tunnels", adminToken, {
        device_id: deviceId,
        minutes: 10,
        kind: "web",
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = String(created.body._id);
      const opened = await call(holder, `/api/tunnel/${id}/web`, adminToken, {});
      const link = opened.body as unknown as WebTunnelOpen;
      if (link.state !== "open") throw new Error(JSON.stringify(opened.body));
      const host = new URL(link.origin).host;
      expect(host).toMatch(/^[0-9a-f]{32}\.tunnel\.test$/);
      // The front proxy sends this browser to the node that does not hold the session: its link,
      // the router's login and its pages all come through, passed on to the holder.
      const otherPort = other === a ? webPorts.a : webPorts.b;
      const browser = testBrowser(`127.0.0.1:${otherPort}`, host);
      await signIn(browser, link.url);
      expect((await browser.request("/")).body).toContain("Signed in as root");
      // The same browser on the holder's own listener is the same session.
      const holderPort = holder === a ? webPorts.a : webPorts.b;
      const direct = testBrowser(`127.0.0.1:${holderPort}`, host);
      for (const [name, value] of browser.cookies) direct.cookies.set(name, value);
      expect((await direct.request("/")).body).toContain("Signed in as root");
      // A WebSocket's upgrade through the other node, both ways.
      const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
      const echoed = await upgradeEcho(`127.0.0.1:${otherPort}`, host, cookie);
      expect(echoed).toMatch(/^HTTP\/1\.1 101 /);
      expect(echoed).toContain("ping-42");

      // Ended on the node that did not open it: both listeners answer ATUN_SRV_NOT_FOUND.
      expect((await call(other, `/api/tunnel/${id}/end`, adminToken, {})).status).toBe(200);
      await endedOn(other, id, `web session held by ${holder.name} ended`);
      await eventually(
        async () => (await browser.request("/")).status === 404,
        "the other node's listener refusing the ended session",
        20_000,
      );
      expectNotFound(await browser.request("/"));
      expectNotFound(await direct.request("/"));
    }
    // A host no node holds: answered after the nodes' silence.
    expectNotFound(
      await testBrowser(`127.0.0.1:${webPorts.a}`, `${"0".repeat(32)}.tunnel.test`).request("/"),
    );
  });
});
