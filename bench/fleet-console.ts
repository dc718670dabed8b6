import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { buildApp } from "../apps/server/src/app";
import { type DeviceIngest, startDeviceIngest } from "../apps/server/src/modules/ingest/ingest.runtime";
import { hashPassword } from "../apps/server/src/platform/auth/passwords";
import type { Bus } from "../apps/server/src/platform/bus/bus";
import { createInProcessBus } from "../apps/server/src/platform/bus/in-process-bus";
import { type Config, loadConfig } from "../apps/server/src/platform/config";
import { migrateToLatest } from "../apps/server/src/platform/db/migrate";
import { type DB, toJsonb } from "../apps/server/src/platform/db/schema";
import { DEFAULT_FLEET_SECRET, deriveFleetKey, fleetIdent } from "../apps/simulator/src/index";
import { openBenchStore } from "./bench-store";

type BenchStore = Awaited<ReturnType<typeof openBenchStore>>;

// A console and a connected fleet for the benchmarks that act on routers (commands, remote access):
// a fresh database with one domain, its routers and people; the real app, the embedded broker and
// ingest with the actions hook; the routers in a process of their own (the simulator's CLI), so
// routers and server do not share an event loop.

const quiet = { info() {}, warn() {}, error() {} };

/** The people made in the domain: username → role and junior flag. Their password is PASSWORD. */
export type BenchPeople = Record<string, { role: number; is_junior: boolean }>;

export const PASSWORD = "Bench-Pass-1";

export interface FleetConsole {
  app: Awaited<ReturnType<typeof buildApp>>;
  db: Kysely<DB>;
  /** The PostgreSQL database's URL (null on PGlite). */
  databaseUrl: string | null;
  domainId: string;
  ingest: DeviceIngest;
  /** Signs a person in over the API: their session token. */
  login(username: string): Promise<string>;
  /** Waits until every router's hello is stored; answers how long it took from the start (ms). */
  connected(): Promise<number>;
  close(): Promise<void>;
}

/** Remote access on loopback for a bench: an SSH endpoint on a free port, its host key in a temp dir, web sessions on free ports. */
export function loopbackTunnelConfig(name: string): Pick<Config, "tunnel"> {
  const keyDir = mkdtempSync(path.join(tmpdir(), `cellfleet-${name}-`));
  return {
    tunnel: {
      sshPort: 0,
      sshHost: "127.0.0.1",
      hostKeyFile: path.join(keyDir, "host_key"),
      web: {
        hostPattern: null,
        scheme: "http",
        consoleHost: "127.0.0.1",
        ports: [0, 0],
        nodeHost: "127.0.0.1",
      },
    },
  };
}

/** A fresh schema with one domain and its routers (the simulator's fleet idents and keys): the domain's id. */
export async function seedFleet(
  db: Kysely<DB>,
  options: { name: string; prefix: string; routers: number },
): Promise<string> {
  await migrateToLatest(db);
  const domainId = randomUUID();
  await db.insertInto("domains").values({ id: domainId, name: options.name }).execute();
  for (let i = 1; i <= options.routers; i += 1000) {
    const rows = [];
    for (let n = i; n < Math.min(i + 1000, options.routers + 1); n += 1) {
      const ident = fleetIdent(options.prefix, n);
      rows.push({
        id: randomUUID(),
        domain_id: domainId,
        ident,
        aes_key: await deriveFleetKey(DEFAULT_FLEET_SECRET, ident),
        tags: toJsonb([]),
        meta: toJsonb({}),
      });
    }
    await db.insertInto("devices").values(rows).execute();
  }
  return domainId;
}

/** The real app (jobs running) with the embedded broker and ingest attached, on the bench's database. */
export async function bootConsole(
  database: BenchStore["database"],
  settings: Partial<Config>,
  isListening = false,
): Promise<{ app: Awaited<ReturnType<typeof buildApp>>; bus: Bus; ingest: DeviceIngest; config: Config }> {
  const config = { ...loadConfig({}), loginRateLimit: 1000, ...settings };
  const bus = createInProcessBus();
  const app = await buildApp({ config, database, bus, jobTimings: { pollMs: 200 } });
  if (isListening) await app.listen({ port: 0, host: "127.0.0.1" });
  else await app.ready();
  app.jobDispatcher.start();
  const ingest = await startDeviceIngest({
    db: database.db,
    bus,
    now: () => new Date(),
    log: quiet,
    mqttUrl: undefined,
    mqttPort: 0,
    host: "127.0.0.1",
    jobs: app.jobs,
    commandStatuses: app.hooks.get("ingest.commandStatuses"),
  });
  app.deviceLink.attach(ingest.gateway);
  return { app, bus, ingest, config };
}

export async function startFleetConsole(options: {
  engine: "postgres" | "pglite";
  name: string;
  /** The routers' ident prefix (the simulator's `--prefix`). */
  prefix: string;
  routers: number;
  people: BenchPeople;
  /** Settings over the embedded defaults. */
  config?: Partial<Config>;
  /** Listens on a free port (for sockets), else only app.inject is used. */
  isListening?: boolean;
  connectRate?: number;
}): Promise<FleetConsole> {
  const { database, url: databaseUrl, drop } = await openBenchStore(options.engine, options.name);
  const db = database.db;
  const domainId = await seedFleet(db, options);
  const hash = await hashPassword(PASSWORD);
  for (const [username, person] of Object.entries(options.people)) {
    await db
      .insertInto("users")
      .values({
        id: randomUUID(),
        domain_id: domainId,
        username,
        role: person.role,
        is_junior: person.is_junior,
        plugins: toJsonb(["notification"]),
        password_hash: hash,
        factory_password: false,
        password_changed_at: new Date(),
        create_time: new Date(),
      })
      .execute();
  }

  const { app, bus, ingest } = await bootConsole(database, { ...options.config }, options.isListening);
  const connectStart = Date.now();
  const simulator: ChildProcess = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "../apps/simulator/src/cli.ts",
      "--devices",
      String(options.routers),
      "--url",
      ingest.gateway.url,
      "--prefix",
      options.prefix,
      "--interval",
      "3600",
      "--events",
      "none",
      "--connect-rate",
      String(options.connectRate ?? 500),
      "--inflight-total",
      "20000",
      "--summary",
      "0",
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  const countConnected = async () =>
    Number(
      (
        await db
          .selectFrom("devices")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .where("domain_id", "=", domainId)
          .where("last_contact", "is not", null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    app,
    db,
    databaseUrl,
    domainId,
    ingest,
    async login(username) {
      const answer = await app.inject({
        method: "POST",
        url: "/api/login/",
        payload: { username, password: PASSWORD },
      });
      return answer.json().token as string;
    },
    async connected() {
      for (let tick = 0; (await countConnected()) < options.routers; tick += 1) {
        if (tick % 10 === 0) console.log(`connected ${await countConnected()} of ${options.routers}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      // Let the hellos settle so the measurement is the benchmark's alone.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      return Date.now() - connectStart;
    },
    async close() {
      simulator.kill("SIGTERM");
      app.deviceLink.detach();
      await ingest.close();
      await app.close();
      await bus.close();
      await drop();
    },
  };
}
