import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "@cellfleet/contract";
import { QUIET_BEHAVIOUR, VirtualRouter } from "@cellfleet/simulator";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../platform/auth/passwords";
import { type Database, openDatabase } from "../../platform/db/database";
import { migrateToLatest } from "../../platform/db/migrate";
import { toJsonb } from "../../platform/db/schema";
import { eventually, insertDevice, type TestDevice, uniqueIdent } from "../ingest/ingest.test-support";
import { runFirstStart } from "../setup/first-start";

// Restart-safety of delivery, for real: a command goes to 40 simulated routers, the server process is
// killed with SIGKILL while executions are at every step (queued, sent, running, finished), restarted
// on the same data, and every execution must still complete, each router having run it exactly once.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const tsxLoader = path.join(repoRoot, "node_modules/tsx/dist/loader.mjs");
const mainFile = path.join(repoRoot, "apps/server/src/main.ts");
const ROUTERS = 40;
const PASSWORD = "Sigkill-Admin-Pass-1";

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

async function prepareStore(): Promise<{
  env: Record<string, string>;
  open(): Database;
  drop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cellfleet-cmdkill-"));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "db") }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `cf_cmdkill_${randomBytes(5).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
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
  const child = spawn(process.execPath, ["--import", pathToFileURL(tsxLoader).href, mainFile], {
    cwd: repoRoot,
    env: { ...process.env, ...env, SIMULATE: "0", LOG_LEVEL: "warn", HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr?.on("data", () => {});
  return child;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

async function call(base: string, url: string, body: object): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json().catch(() => null) };
}

describe("command delivery survives SIGKILL", () => {
  it("kills the server mid-delivery, restarts it, and every router runs the command once", {
    timeout: 150_000,
  }, async () => {
    const store = await prepareStore();
    cleanups.push(store.drop);
    const seed = store.open();
    await migrateToLatest(seed.db);
    await runFirstStart(seed.db, {
      rootPassword: "cmdkill-root-password",
      now: () => new Date(),
      log: { warn() {} },
    });
    const demo = await seed.db
      .selectFrom("domains")
      .select("id")
      .where("name", "=", "demo")
      .executeTakeFirstOrThrow();
    const devices: TestDevice[] = [];
    for (let i = 0; i < ROUTERS; i += 1)
      devices.push(await insertDevice({ db: seed.db }, demo.id, { ident: uniqueIdent("K") }));
    await seed.db
      .insertInto("users")
      .values({
        id: randomUUID(),
        domain_id: demo.id,
        username: "killadmin",
        role: 2,
        plugins: toJsonb(["notification"]),
        password_hash: await hashPassword(PASSWORD),
        factory_password: false,
        password_changed_at: new Date(),
        create_time: new Date(),
      })
      .execute();
    await seed.close();

    const env = { ...store.env, PORT: String(await freePort()), MQTT_PORT: String(await freePort()) };
    const base = `http://127.0.0.1:${env.PORT}`;
    const first = startServer(env);
    cleanups.push(async () => {
      first.kill("SIGKILL");
      await exited(first);
    });
    const routers = devices.map(
      (device, index) =>
        new VirtualRouter({
          ident: device.ident,
          key: device.key as string,
          url: `mqtt://127.0.0.1:${env.MQTT_PORT}`,
          autoTick: false,
          behaviour: QUIET_BEHAVIOUR,
          reconnectPeriodMs: 250,
          // Spread over 0.2-2 s, so the kill finds executions at every step.
          commandDelayMs: 200 + index * 45,
        }),
    );
    cleanups.push(async () => {
      await Promise.all(routers.map((router) => router.stop()));
    });
    await Promise.all(routers.map((router) => router.start()));
    await eventually(() => routers.every((router) => router.stats.connected), "routers connected", 40_000);

    let token = "";
    await eventually(
      async () => {
        const login = await call(base, "/api/login/", { username: "killadmin", password: PASSWORD }).catch(
          () => null,
        );
        token = (login?.json as { token?: string } | null)?.token ?? "";
        return token !== "";
      },
      "the first server's API",
      20_000,
    );
    const created = await call(base, "/api/command/new", {
      token,
      type: "shell",
      args: { script: "uptime" },
      targets: { all: true },
    });
    expect(created.status).toBe(200);
    const id = (created.json as Command)._id;
    // Kill once some routers finished and some have not.
    await eventually(
      () => routers.filter((router) => router.stats.commands > 0).length >= ROUTERS / 4,
      "a quarter running",
      30_000,
    );
    first.kill("SIGKILL");
    await exited(first);
    expect(first.signalCode).toBe("SIGKILL");

    const second = startServer(env);
    cleanups.push(async () => {
      second.kill("SIGKILL");
      await exited(second);
    });
    let command: Command | null = null;
    await eventually(
      async () => {
        const answer = await call(base, `/api/command/${id}`, { token }).catch(() => null);
        command = answer?.status === 200 ? (answer.json as Command) : null;
        return command?.status === "completed";
      },
      "every execution completed after the restart",
      90_000,
    );
    expect(command).toMatchObject({ status: "completed", counts: { completed: ROUTERS } });
    // Redelivery is idempotent: every router ran it exactly once, repeats answered from memory.
    expect(routers.map((router) => router.stats.commands)).toEqual(routers.map(() => 1));
    second.kill("SIGTERM");
    await exited(second);
  });
});
