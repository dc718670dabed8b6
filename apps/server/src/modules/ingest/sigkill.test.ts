import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { collectTopic } from "@cellfleet/contract";
import mqtt, { type MqttClient } from "mqtt";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../platform/db/database";
import { migrateToLatest } from "../../platform/db/migrate";
import { runFirstStart } from "../setup/first-start";
import { boardReport, insertDevice, uniqueIdent } from "./ingest.test-support";

// The promise of docs/device-protocol.md 5.2, tested for real: the server process is killed with
// SIGKILL in the middle of a stream of QoS 1 reports, restarted on the same data, and every report
// it had acknowledged must be in the database.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const tsxLoader = path.join(repoRoot, "node_modules/tsx/dist/loader.mjs");
const mainFile = path.join(repoRoot, "apps/server/src/main.ts");
const REPORTS = 4000;
const KILL_AFTER_ACKS = 1500;
const WINDOW = 200;

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Where the child keeps its data: PGlite in a temp DATA_DIR, or a fresh PostgreSQL database. */
async function prepareStore(): Promise<{
  env: Record<string, string>;
  open(): Database;
  drop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cellfleet-sigkill-"));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "db") }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `cf_sigkill_${randomBytes(5).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: () => openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 2 }),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await admin(`drop database if exists "${name}" with (force)`);
    },
  };
}

function startServer(env: Record<string, string>): ChildProcess {
  // node itself with tsx's loader, not the tsx CLI: the CLI runs the server in a child process of its
  // own, and a SIGKILL to the CLI would leave that child running.
  const child = spawn(process.execPath, ["--import", pathToFileURL(tsxLoader).href, mainFile], {
    cwd: repoRoot,
    env: { ...process.env, ...env, SIMULATE: "0", LOG_LEVEL: "warn", HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr = (stderr + String(chunk)).slice(-4000);
  });
  child.on("exit", (code, signal) => {
    if (code !== 0 && signal === null) console.error(`server exited ${code}: ${stderr}`);
  });
  return child;
}

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

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

describe("an acknowledged report survives SIGKILL", () => {
  it("kills the server mid-stream, restarts it, and finds every acknowledged report stored", {
    timeout: 90_000,
  }, async () => {
    const store = await prepareStore();
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
    const first = startServer(env);
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
    const second = startServer(env);
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
