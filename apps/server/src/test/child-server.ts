import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type Database, openDatabase } from "../platform/db/database";
import { runAdminQuery } from "./test-db";

export { freePort } from "../platform/bus/bus-servers.test-support";
export { exited } from "../platform/jobs/job-nodes.test-support";

// A real server process (main.ts) for the tests that kill one with SIGKILL and start it again on
// the same data.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const tsxLoader = path.join(repoRoot, "node_modules/tsx/dist/loader.mjs");
const mainFile = path.join(repoRoot, "apps/server/src/main.ts");

/** Where a child server keeps its data, the environment that says so, and how to open and drop it. */
export interface ChildStore {
  env: Record<string, string>;
  open(): Database;
  drop(): Promise<void>;
}

/** PGlite in a temp DATA_DIR, or a fresh PostgreSQL database when DATABASE_URL is set; `name` tells them apart. */
export async function prepareChildStore(name: string): Promise<ChildStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `cellfleet-${name}-`));
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    return {
      env: { DATA_DIR: dataDir },
      open: () => openDatabase({ kind: "pglite", dataDir: path.join(dataDir, "db") }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const database = `cf_${name}_${randomBytes(5).toString("hex")}`;
  const admin = (statement: string) => runAdminQuery(serverUrl, statement);
  await admin(`create database "${database}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: () => openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 2 }),
    drop: async () => {
      rmSync(dataDir, { recursive: true, force: true });
      await admin(`drop database if exists "${database}" with (force)`);
    },
  };
}

/** Starts main.ts with `env`; a non-zero exit that no signal caused is logged with its stderr's end. */
export function startServerProcess(env: Record<string, string>): ChildProcess {
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
