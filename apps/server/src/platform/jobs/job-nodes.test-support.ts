import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sql } from "kysely";
import { runAdminQuery } from "../../test/test-db";
import { createInProcessBus } from "../bus/in-process-bus";
import { type Database, openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { loadPlatformSecrets } from "../secrets";
import { createJobs, type Jobs } from "./jobs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const tsxLoader = path.join(repoRoot, "node_modules/tsx/dist/loader.mjs");
const nodeFile = path.join(repoRoot, "apps/server/src/test/job-node.ts");

/** The kind apps/server/src/test/job-node.ts runs. */
export const EFFECT_JOB = "test.effect";

/** Where job nodes keep their data: PGlite on disk (one process at a time) or a fresh PostgreSQL database. */
export interface JobStore {
  kind: "pglite" | "postgres";
  env: Record<string, string>;
  open(): Database;
  drop(): Promise<void>;
}

/** A store on PostgreSQL when `serverUrl` is given, else PGlite in a temp dir. */
export async function prepareJobStore(serverUrl: string | undefined): Promise<JobStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "cellfleet-jobs-"));
  if (!serverUrl) {
    return {
      kind: "pglite",
      env: { JOB_NODE_DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "db") }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `cf_jobs_${randomBytes(5).toString("hex")}`;
  await runAdminQuery(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    kind: "postgres",
    env: { JOB_NODE_DATABASE_URL: url.toString() },
    open: () => openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 4 }),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await runAdminQuery(serverUrl, `drop database if exists "${name}" with (force)`);
    },
  };
}

/** Migrates the store and makes the side-effect table the nodes write (one row per job, runs counted). */
export async function setUpJobStore(database: Database): Promise<Jobs> {
  await migrateToLatest(database.db);
  await sql`create table if not exists job_effects (
    job_id text primary key, node text not null, runs integer not null)`.execute(database.db);
  const jobs = createJobs({
    db: database.db,
    bus: createInProcessBus(),
    secrets: await loadPlatformSecrets(database.db),
    now: () => new Date(),
  });
  // Registered so enqueue accepts the kind; this process never dispatches.
  jobs.register(EFFECT_JOB, { handle: async () => {} });
  return jobs;
}

/** A job node child process and the lines it printed. */
export interface JobNode {
  child: ChildProcess;
  lines: string[];
  /** The last 4,000 characters it wrote on stderr. */
  stderr(): string;
  /** Waits (bounded) for a printed line that matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then waits for the exit (the node drains its handlers). */
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Resolves once the child process has exited (at once if it already has). */
export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** Starts apps/server/src/test/job-node.ts with node and tsx's loader (so SIGKILL reaches the node itself). */
export function startJobNode(env: Record<string, string>): JobNode {
  const child = spawn(process.execPath, ["--import", pathToFileURL(tsxLoader).href, nodeFile], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  let partial = "";
  child.stdout?.on("data", (chunk) => {
    const parts = (partial + String(chunk)).split("\n");
    partial = parts.pop() ?? "";
    lines.push(...parts);
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr = (stderr + String(chunk)).slice(-4000);
  });
  return {
    child,
    lines,
    stderr: () => stderr,
    async waitForLine(pattern, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = lines.find((line) => pattern.test(line));
        if (found) return found;
        if (child.exitCode !== null) throw new Error(`job node exited ${child.exitCode}: ${stderr}`);
        if (Date.now() > deadline) throw new Error(`no line ${pattern} from the job node: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      child.kill("SIGTERM");
      await exited(child);
    },
    async kill() {
      child.kill("SIGKILL");
      await exited(child);
    },
  };
}
