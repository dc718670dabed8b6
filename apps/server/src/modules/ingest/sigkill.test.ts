import { collectTopic } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../platform/db/migrate";
import { exited, freePort, prepareChildStore, startServerProcess } from "../../test/child-server";
import { runFirstStart } from "../setup/first-start";
import { boardReport, insertDevice, uniqueIdent } from "./ingest.test-support";

// The promise of docs/device-protocol.md 5.2, tested for real: the server process is killed with
// SIGKILL in the middle of a stream of QoS 1 reports, restarted on the same data, and every report
// it had acknowledged must be in the database.

const REPORTS = 4000;
const KILL_AFTER_ACKS = 1500;
const WINDOW = 200;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Connects as the device, retrying until the server's broker is up (bounded). */
async function connectWhenUp(
  port: number,
  ident: string,
  token: string,
  timeoutMs = 40_000,
): Promise<MqttClient> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
        clientId: ident,
        username: ident,
        password: token,
        reconnectPeriod: 0,
        connectTimeout: 2000,
      });
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

describe("an acknowledged report survives SIGKILL", () => {
  it("kills the server mid-stream, restarts it, and finds every acknowledged report stored", {
    timeout: 90_000,
  }, async () => {
    const store = await prepareChildStore("sigkill");
    cleanups.push(store.drop);
    const seed = store.open();
    await migrateToLatest(seed.db);
    await runFirstStart(seed.db, {
      rootPassword: "sigkill-root-password",
      now: () => new Date(),
      log: { warn() {} },
    });
    const demo = await seed.db
      .selectFrom("domains")
      .select("id")
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    const device = await insertDevice({ db: seed.db }, demo.id, { ident: uniqueIdent("KILL") });
    await seed.close();

    const env = { ...store.env, PORT: String(await freePort()), MQTT_PORT: String(await freePort()) };
    const first = startServerProcess(env);
    cleanups.push(async () => {
      first.kill("SIGKILL");
      await exited(first);
    });
    const client = await connectWhenUp(Number(env.MQTT_PORT), device.ident, device.token ?? "");
    client.on("error", () => {});

    const acked = new Set<number>();
    let sent = 0;
    let killed = false;
    await new Promise<void>((resolve) => {
      const pump = () => {
        while (!killed && sent < REPORTS && sent - acked.size < WINDOW) {
          const seq = ++sent;
          client.publish(
            collectTopic(device.ident, "board"),
            JSON.stringify(boardReport(seq, seq)),
            { qos: 1 },
            (error) => {
              if (error || killed) return;
              acked.add(seq);
              if (acked.size >= KILL_AFTER_ACKS) {
                killed = true;
                first.kill("SIGKILL");
                resolve();
                return;
              }
              pump();
            },
          );
        }
      };
      pump();
    });
    await exited(first);
    expect(first.signalCode).toBe("SIGKILL");
    client.end(true);
    // Reports were still in flight when the process died: the kill really was mid-stream.
    expect(sent).toBeGreaterThan(acked.size);

    // Restart on the same data: the server must come back up, then it is stopped to read the store.
    const second = startServerProcess(env);
    cleanups.push(async () => {
      second.kill("SIGKILL");
      await exited(second);
    });
    const again = await connectWhenUp(Number(env.MQTT_PORT), device.ident, device.token ?? "");
    await again.endAsync(true);
    second.kill("SIGTERM");
    await exited(second);

    const check = store.open();
    try {
      const rows = await check.db
        .selectFrom("collect_history")
        .select("seq")
        .where("device_id", "=", device.id)
        .execute();
      const stored = new Set(rows.map((row) => Number(row.seq)));
      const missing = [...acked].filter((seq) => !stored.has(seq));
      expect(missing).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(acked.size);
    } finally {
      await check.close();
    }
  });
});
