// The seeded server the listing and browser benchmarks run against: a fresh PostgreSQL database (or a
// PGlite directory) and bench/listing-server.ts forked as a child process with its own event loop. The
// child migrates, seeds the devices, signs an admin up and answers { port, username, password, seedMs }.
// stop() ends the child and drops the database; SIGINT/SIGTERM do the same before the process exits.
import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { BENCH_PG_URL } from "./bench-store";

const here = path.dirname(fileURLToPath(import.meta.url));

export interface BenchServerOptions {
  engine: "postgres" | "pglite";
  devices: number;
  /** Names the database (`<name>_<random>`) or the temp directory. */
  name: string;
  pgUrl?: string;
  /** Extra Node options of the child, such as --cpu-prof. */
  execArgv?: string[];
}

export interface BenchServer {
  baseUrl: string;
  username: string;
  /** Every user the child signed up (BENCH_PEOPLE, 1 by default), all with `password`; the first is `username`. */
  usernames: string[];
  password: string;
  seedMs: number;
  /** The child's PostgreSQL database (undefined on PGlite), for measurements beside the server. */
  databaseUrl: string | undefined;
  /** The child's CPU time so far (user + system), in ms. */
  cpuMs: () => Promise<number>;
  /** The child's process id, for reading its memory from /proc. */
  pid: number | undefined;
  /** The child's heap in use now (V8's heapUsed), in MB. */
  heapUsedMb: () => Promise<number>;
  /** Ends the child and drops its database; safe to call twice. */
  stop: () => Promise<void>;
}

interface ReadyMessage {
  port: number;
  username: string;
  usernames: string[];
  password: string;
  seedMs: number;
}

async function runAdminStatement(pgUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
}

/** A fresh database or directory for the child, and how to remove it. */
async function prepareStorage(
  options: BenchServerOptions,
): Promise<{ env: NodeJS.ProcessEnv; remove: () => Promise<void> }> {
  if (options.engine === "pglite") {
    const dir = mkdtempSync(path.join(tmpdir(), `cellfleet-${options.name}-`));
    return {
      env: { BENCH_PGLITE_DIR: dir },
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const pgUrl = options.pgUrl ?? BENCH_PG_URL;
  const database = `${options.name}_${randomBytes(4).toString("hex")}`;
  await runAdminStatement(pgUrl, `create database "${database}"`);
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  return {
    env: { BENCH_PG_URL: url.toString() },
    remove: () => runAdminStatement(pgUrl, `drop database "${database}" with (force)`),
  };
}

function waitForReady(child: ChildProcess): Promise<ReadyMessage> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start within 10 minutes")), 600_000);
    child.once("message", (message) => {
      clearTimeout(timer);
      resolve(message as ReadyMessage);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}`));
    });
  });
}

async function endChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  if (child.connected) child.send("stop");
  else child.kill("SIGTERM");
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/** Creates the storage, forks the seeding server and waits until it listens. */
/** Signs the seeded account in over HTTP and answers its token. */
export async function benchToken(
  server: Pick<BenchServer, "baseUrl" | "username" | "password">,
): Promise<string> {
  const login = await fetch(`${server.baseUrl}/api/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: server.username, password: server.password }),
  });
  return ((await login.json()) as { token: string }).token;
}

export async function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  const storage = await prepareStorage(options);
  const child = fork(path.join(here, "listing-server.ts"), [], {
    env: { ...process.env, ...storage.env, BENCH_DEVICES: String(options.devices) },
    execArgv: ["--import", "tsx", ...(options.execArgv ?? [])],
    stdio: "inherit",
  });
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      process.off("SIGINT", handleSignal);
      process.off("SIGTERM", handleSignal);
      try {
        await endChild(child);
      } finally {
        await storage.remove();
      }
    })();
    return stopping;
  };
  // Ctrl+C while seeding or measuring still ends the child and drops the database.
  function handleSignal(signal: NodeJS.Signals) {
    console.error(`\n${signal}: stopping the server and removing its database…`);
    void stop().finally(() => process.exit(130));
  }
  process.on("SIGINT", handleSignal);
  process.on("SIGTERM", handleSignal);

  let ready: ReadyMessage;
  try {
    ready = await waitForReady(child);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    baseUrl: `http://127.0.0.1:${ready.port}`,
    username: ready.username,
    usernames: ready.usernames,
    password: ready.password,
    seedMs: ready.seedMs,
    databaseUrl: storage.env.BENCH_PG_URL,
    pid: child.pid,
    heapUsedMb: () =>
      new Promise<number>((resolve) => {
        const onMessage = (message: unknown) => {
          const memory = (message as { memory?: NodeJS.MemoryUsage }).memory;
          if (!memory) return;
          child.off("message", onMessage);
          resolve(memory.heapUsed / 1024 / 1024);
        };
        child.on("message", onMessage);
        child.send("memory");
      }),
    cpuMs: () =>
      new Promise<number>((resolve) => {
        const onMessage = (message: unknown) => {
          const cpu = (message as { cpu?: NodeJS.CpuUsage }).cpu;
          if (!cpu) return;
          child.off("message", onMessage);
          resolve((cpu.user + cpu.system) / 1000);
        };
        child.on("message", onMessage);
        child.send("cpu");
      }),
    stop,
  };
}
