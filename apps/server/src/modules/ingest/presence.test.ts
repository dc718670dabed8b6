import { createServer, type Server, Socket } from "node:net";
import { type Device, DevicesSocketMessageSchema, publisherClientId } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { domainTopic } from "../../platform/bus/bus";
import { type ActionsFixture, openActionsFixture } from "../actions/actions.test-support";
import type { DeviceIngest } from "./ingest.runtime";
import { connectDevice, eventually, startTestIngest, type TestDevice } from "./ingest.test-support";
import { createPresenceTracker } from "./presence";

// A router's connection now (issue 27 item 3, ADR 032): a router killed without a DISCONNECT is
// "disconnected" once its keep-alive runs out, while its status stays online for the threshold; the
// dry run counts it offline; with two gateway nodes a late close on the old node does not undo the
// connection on the new one.

let f: ActionsFixture;
let admin: { id: string; token: string };
const clients: MqttClient[] = [];
const links: FreezableLink[] = [];

beforeAll(async () => {
  f = await openActionsFixture();
  admin = await f.person("admin");
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
  await Promise.all(links.splice(0).map((link) => link.close()));
});
afterAll(async () => {
  await f.close();
});

/** A TCP relay to a broker that can go silent while its sockets stay open: a router whose link died. */
interface FreezableLink {
  url: string;
  freeze(): void;
  close(): Promise<void>;
}

async function freezableLink(brokerPort: number): Promise<FreezableLink> {
  const sockets: Socket[] = [];
  let frozen = false;
  const server: Server = createServer((inbound) => {
    const outbound = new Socket();
    outbound.connect(brokerPort, "127.0.0.1");
    sockets.push(inbound, outbound);
    inbound.on("data", (chunk) => frozen || outbound.write(chunk));
    outbound.on("data", (chunk) => frozen || inbound.write(chunk));
    inbound.on("error", () => {});
    outbound.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const link = {
    url: `mqtt://127.0.0.1:${port}`,
    freeze() {
      frozen = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  links.push(link);
  return link;
}

/** Connects as the router with a 1 s keep-alive (the broker gives up after 1.5 s of silence). */
async function connectRouter(url: string, device: TestDevice): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    clientId: device.ident,
    username: device.ident,
    password: device.token ?? undefined,
    keepalive: 1,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
  client.on("error", () => {});
  clients.push(client);
  return client;
}

async function row(device: TestDevice) {
  return f.t.db
    .selectFrom("devices")
    .select(["connected", "connection_time", "connection_node"])
    .where("id", "=", device.id)
    .executeTakeFirstOrThrow();
}

const isConnected = async (device: TestDevice) => (await row(device)).connected;

async function listed(device: TestDevice): Promise<Device> {
  const response = await f.post(admin.token, "/api/devices/", {});
  expect(response.statusCode, response.body).toBe(200);
  const line = response.body
    .trim()
    .split("\n")
    .map((text) => JSON.parse(text) as Device)
    .find((entry) => entry._id === device.id);
  if (!line) throw new Error(`${device.ident} not in the list`);
  return line;
}

const brokerPort = (ingest: DeviceIngest) => ingest.gateway.port;

describe("a router's connection now", () => {
  it("a router killed without DISCONNECT is disconnected after its keep-alive, still online by status, offline in the dry run", async () => {
    const device = await f.device(["killed"]);
    const pushed: Array<{ _id: string; connected?: boolean | null }> = [];
    const unsubscribe = f.t.bus.subscribe(domainTopic(f.domainId), (message) => {
      const parsed = DevicesSocketMessageSchema.safeParse(message);
      if (parsed.success) pushed.push(...parsed.data.content);
    });
    const link = await freezableLink(brokerPort(f.ingest));
    await connectRouter(link.url, device);
    await eventually(async () => (await isConnected(device)) === true, "connected");
    expect((await listed(device)).connected).toBe(true);
    // A contact now, so the status is online for its threshold whatever happens to the link.
    await f.t.db
      .updateTable("devices")
      .set({ last_contact: f.t.clock.now() })
      .where("id", "=", device.id)
      .execute();

    link.freeze();
    await eventually(
      async () => (await isConnected(device)) === false,
      "disconnected after the keep-alive",
      8000,
    );
    // The list may answer a page kept from before the disconnect until its bus message arrives (ADR 046).
    await eventually(async () => (await listed(device)).connected === false, "listed as disconnected");
    const shown = await listed(device);
    expect(shown).toMatchObject({ status: "online", connected: false });
    expect(shown.connection_time).toBe(f.t.clock.now().getTime());
    expect(pushed.filter((entry) => entry._id === device.id).map((entry) => entry.connected)).toEqual([
      true,
      false,
    ]);
    unsubscribe();

    const dry = await f.post(admin.token, "/api/commands/dry-run", {
      type: "reboot",
      args: {},
      targets: { tags: ["killed"] },
    });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({
      targets: 1,
      offline: 1,
      sample: [{ ident: device.ident, is_online: false }],
    });
  }, 15_000);

  it("a clean DISCONNECT is disconnected; a takeover under the same ident stays connected", async () => {
    const device = await f.device();
    const first = await connectDevice(f.ingest.gateway.url, device.ident, device.token ?? undefined);
    clients.push(first);
    await eventually(async () => (await isConnected(device)) === true, "connected");
    const second = await connectDevice(f.ingest.gateway.url, device.ident, device.token ?? undefined);
    clients.push(second);
    await eventually(() => !first.connected, "the first connection taken over");
    await f.ingest.presence.flush();
    expect(await isConnected(device)).toBe(true);
    // Its publishing connection (ADR 030) coming and going leaves the router connected.
    const publisher = await connectDevice(
      f.ingest.gateway.url,
      publisherClientId(device.ident),
      device.token ?? undefined,
    );
    await publisher.endAsync();
    await f.ingest.presence.flush();
    expect(await isConnected(device)).toBe(true);
    await second.endAsync();
    await eventually(async () => (await isConnected(device)) === false, "disconnected");
  });

  it("with two gateway nodes, the old node's late keep-alive loss does not undo the connection on the new one", async () => {
    const other = await startTestIngest(f.t, { flushIntervalMs: 10 });
    try {
      const device = await f.device();
      const link = await freezableLink(brokerPort(f.ingest));
      await connectRouter(link.url, device);
      await eventually(async () => (await isConnected(device)) === true, "connected to the first node");
      const firstNode = (await row(device)).connection_node;
      // The router's link to the first node dies; it comes back through the second before the
      // first notices.
      link.freeze();
      await connectRouter(other.gateway.url, device);
      await eventually(
        async () => (await row(device)).connection_node !== firstNode,
        "connected to the second node",
      );
      // The first node's broker gives up on the silent connection (1.5 s) and writes its close.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      await f.ingest.presence.flush();
      expect(await row(device)).toMatchObject({ connected: true });
      expect((await listed(device)).connected).toBe(true);
    } finally {
      await other.close();
    }
  }, 15_000);

  it("a node that starts again closes the connections it held when it stopped", async () => {
    const device = await f.device();
    await f.t.db
      .updateTable("devices")
      .set({ connected: true, connection_time: f.t.clock.now(), connection_node: "gone:1883" })
      .where("id", "=", device.id)
      .execute();
    const tracker = createPresenceTracker({ db: f.t.db, bus: f.t.bus, now: f.t.clock.now, log: console });
    await tracker.start("gone:1883");
    await tracker.close();
    expect(await row(device)).toMatchObject({ connected: false, connection_node: "gone:1883" });
  });
});
