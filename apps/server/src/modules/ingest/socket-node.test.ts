import { randomBytes } from "node:crypto";
import { collectTopic, deriveDeviceToken } from "@cellfleet/contract";
import type { MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  freshDatabase,
  makeDomainWithAdmin,
  onCleanup,
  openReadySocket,
  runCleanups,
  serverUrl,
  startNode,
} from "../../platform/bus/two-nodes.test-support";
import { startOwnMosquitto } from "../broker-accounts/mosquitto-dynsec.test-support";
import { boardReport, connectDevice, eventually } from "./ingest.test-support";

// A socket-serving node (ADR 036): DEVICE_SIDE=0 runs no gateway and no ingest; the node that does
// (behind its own Mosquitto) stores the reports, and the browser's socket on the socket-serving node
// receives them over the NATS bus, narrowed to its view. PostgreSQL only (the DATABASE_URL pass).

afterAll(runCleanups);

describe.skipIf(!serverUrl)("a socket-serving node beside an ingest node", () => {
  it("takes no reports itself and pushes the ingest node's to its sockets", {
    timeout: 120_000,
  }, async () => {
    const broker = await startOwnMosquitto();
    onCleanup(() => broker.close());
    const databaseUrl = await freshDatabase();
    const [ingestNode, socketNode] = await Promise.all([
      startNode("ingest", databaseUrl, "nats://127.0.0.1:4222", {
        smtpUrl: "smtp://127.0.0.1:1",
        runsJobs: true,
        env: {
          MQTT_URL: broker.serverUrl,
          MQTT_DYNSEC: "1",
          MQTT_CLIENT_ID: `cellfleet-ingest-${randomBytes(3).toString("hex")}`,
        },
      }),
      startNode("sockets", databaseUrl, "nats://127.0.0.1:4222", {
        smtpUrl: "smtp://127.0.0.1:1",
        runsJobs: false,
        // The same broker settings as every node (routers made here get their accounts through jobs).
        env: { DEVICE_SIDE: "0", MQTT_URL: broker.serverUrl, MQTT_DYNSEC: "1" },
      }),
    ]);
    expect(socketNode.output()).toContain("DEVICE_SIDE=0");
    expect(socketNode.output()).not.toContain("device gateway ready");

    const { adminToken } = await makeDomainWithAdmin(socketNode);
    const routers = await Promise.all(
      ["A", "B"].map(async (letter) => {
        const ident = `SOCK${letter}${randomBytes(4).toString("hex").toUpperCase()}`;
        const key = randomBytes(32).toString("hex").toUpperCase();
        const created = await call(socketNode, "/api/devices/new", adminToken, { ident, aes_key: key });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        return { id: String(created.body._id), ident, token: await deriveDeviceToken(ident, key) };
      }),
    );
    const [viewed, other] = routers as [(typeof routers)[number], (typeof routers)[number]];

    // A browser on the socket-serving node views the first router's page.
    const socket = await openReadySocket(socketNode, adminToken);
    socket.sendJson({ type: "view", views: [{ kind: "device", id: viewed.id }] });
    const collects: Array<{ device_id: string; seq: number }> = [];
    socket.ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as { type?: string; content?: typeof collects };
      if (message.type === "collects") collects.push(...(message.content ?? []));
    });

    const clients: MqttClient[] = [];
    for (const router of routers) {
      let client: MqttClient | null = null;
      await eventually(
        async () => {
          client = await connectDevice(broker.url, router.ident, router.token).catch(() => null);
          return client !== null;
        },
        `an account for ${router.ident}`,
        20_000,
      );
      clients.push(client as unknown as MqttClient);
    }
    onCleanup(async () => {
      await Promise.all(clients.map((client) => client.endAsync(true)));
    });
    for (const [index, router] of routers.entries())
      await (clients[index] as MqttClient).publishAsync(
        collectTopic(router.ident, "board"),
        JSON.stringify(boardReport(7, 70)),
        { qos: 1 },
      );

    await eventually(
      () => collects.some((collect) => collect.device_id === viewed.id && collect.seq === 7),
      "the viewed router's board on the socket-serving node",
      15_000,
    );
    // The other router's report reached the bus too, but not this page's socket (its view).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(collects.some((collect) => collect.device_id === other.id)).toBe(false);
    expect(ingestNode.output()).toContain("device gateway ready");
  });
});
