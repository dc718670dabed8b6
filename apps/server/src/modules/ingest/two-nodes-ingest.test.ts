import { randomBytes } from "node:crypto";
import { collectTopic, deriveDeviceToken, eventTopic } from "@cellfleet/contract";
import type { MqttClient } from "mqtt";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  call,
  makeDomainWithAdmin,
  onCleanup,
  openReadySocket,
  ROOT_PASSWORD,
  runCleanups,
  serverUrl,
  signIn,
} from "../../platform/bus/two-nodes.test-support";
import { startTwoNodesOnMosquitto } from "../broker-accounts/two-nodes-mosquitto.test-support";
import { boardReport, connectDevice, envelope, eventually } from "./ingest.test-support";

// Several server nodes (issue 17): two processes on one PostgreSQL, one Mosquitto (the repo's
// configuration, dynamic-security accounts) with a shared subscription, and the NATS bus. Reports
// split between the nodes, none is lost or stored twice, and a socket on either node sees every
// update of every router. PostgreSQL only, so it runs in the DATABASE_URL pass.

const ROUTERS = 12;
const REPORTS = 10;

afterAll(runCleanups);

describe.skipIf(!serverUrl)("two server nodes behind one Mosquitto", () => {
  it("split the reports, lose and repeat none, and both sockets see every update", {
    timeout: 150_000,
  }, async () => {
    const { broker, databaseUrl, a, b } = await startTwoNodesOnMosquitto();
    const { adminToken } = await makeDomainWithAdmin(b);
    const socketA = await openReadySocket(a, adminToken);
    const socketB = await openReadySocket(b, adminToken);
    const seen = { A: new Set<string>(), B: new Set<string>() };
    for (const [name, socket] of [
      ["A", socketA],
      ["B", socketB],
    ] as const) {
      socket.ws.on("message", (data) => {
        const message = JSON.parse(String(data)) as {
          type?: string;
          content?: Array<{ device_id: string; seq: number }>;
        };
        if (message.type === "collects")
          for (const collect of message.content ?? []) seen[name].add(`${collect.device_id}/${collect.seq}`);
      });
    }

    // Routers made on both nodes; node A or B provisions their Mosquitto accounts through jobs.
    const routers = await Promise.all(
      Array.from({ length: ROUTERS }, async (_, index) => {
        const ident = `TWO${randomBytes(5).toString("hex").toUpperCase()}`;
        const key = randomBytes(32).toString("hex").toUpperCase();
        const created = await call(index % 2 ? a : b, "/api/devices/new", adminToken, {
          ident,
          aes_key: key,
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        return { id: String(created.body._id), ident, token: await deriveDeviceToken(ident, key) };
      }),
    );
    const clients: MqttClient[] = [];
    for (const router of routers) {
      let client: MqttClient | null = null;
      await eventually(
        async () => {
          client = await connectDevice(broker.url, router.ident, router.token).catch(() => null);
          return client !== null;
        },
        `an account for ${router.ident}`,
        45_000,
      );
      clients.push(client as unknown as MqttClient);
    }
    onCleanup(async () => {
      await Promise.all(clients.map((client) => client.endAsync(true)));
    });

    // Each router: REPORTS board snapshots and as many events, spaced so batches interleave.
    await Promise.all(
      routers.map(async (router, index) => {
        const client = clients[index] as MqttClient;
        for (let n = 1; n <= REPORTS; n++) {
          await client.publishAsync(
            collectTopic(router.ident, "board"),
            JSON.stringify(boardReport(2 * n, n)),
            { qos: 1 },
          );
          const event = {
            ...envelope(2 * n + 1),
            kind: "gpio_value_change",
            level: "info",
            message: `pin ${n}`,
            details: {},
          };
          await client.publishAsync(eventTopic(router.ident), JSON.stringify(event), { qos: 1 });
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }),
    );

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    onCleanup(() => db.end());
    const ids = routers.map((router) => router.id);
    await eventually(
      async () => {
        const { rows } = await db.query("select count(*)::int as n from events where device_id = any($1)", [
          ids,
        ]);
        return rows[0].n >= ROUTERS * REPORTS;
      },
      "every event stored",
      45_000,
    );
    const events = await db.query(
      "select device_id, count(*)::int as n, count(distinct seq)::int as seqs from events where device_id = any($1) group by device_id",
      [ids],
    );
    expect(events.rows).toHaveLength(ROUTERS);
    for (const row of events.rows) expect(row).toMatchObject({ n: REPORTS, seqs: REPORTS });
    const boards = await db.query(
      "select device_id, seq from device_collects where type = 'board' and device_id = any($1)",
      [ids],
    );
    expect(boards.rows.map((row) => Number(row.seq))).toEqual(Array(ROUTERS).fill(2 * REPORTS));

    // The reports split: each node stored some (its own counters, read as root).
    const root = await signIn(a, "root", `${ROOT_PASSWORD}-New9`);
    const stored = await Promise.all(
      [a, b].map(async (node) => {
        const stats = await fetch(`${node.base}/api/mqtt/stats`, { headers: { token: root } });
        const body = (await stats.json()) as { ingest: { stored: number; duplicates: number } };
        return body.ingest;
      }),
    );
    for (const figures of stored) expect(figures.stored).toBeGreaterThan(0);
    expect(stored[0].stored + stored[1].stored).toBe(2 * ROUTERS * REPORTS);
    expect(stored[0].duplicates + stored[1].duplicates).toBe(0);

    // Both sockets saw the same updates, the last state of every router among them.
    await eventually(
      () =>
        routers.every((r) => seen.A.has(`${r.id}/${2 * REPORTS}`) && seen.B.has(`${r.id}/${2 * REPORTS}`)),
      "the last board of every router on both sockets",
      10_000,
    );
    expect([...seen.A].sort()).toEqual([...seen.B].sort());
    console.info(
      `two nodes: stored ${stored[0].stored} on A and ${stored[1].stored} on B; ${seen.A.size} collect updates on each socket`,
    );
  });
});
