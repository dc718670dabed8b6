import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";
import { expect } from "vitest";
import { runFirstStart } from "../../modules/setup/first-start";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { freePort } from "./bus-servers.test-support";

// Whole server processes from the same code on one PostgreSQL database and one networked bus, for
// the tests that check what crosses between nodes (two-nodes*.test.ts). PostgreSQL only (PGlite is
// one process's own), so those tests run in the DATABASE_URL pass.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const tsxLoader = path.join(repoRoot, "node_modules/tsx/dist/loader.mjs");
const mainFile = path.join(repoRoot, "apps/server/src/main.ts");
/** The PostgreSQL server the nodes share; unset, the tests that need it are skipped. */
export const serverUrl = process.env.DATABASE_URL;
export const ROOT_PASSWORD = "Two-nodes-root-1";

const cleanups: Array<() => Promise<void>> = [];

/** Registers what `runCleanups` undoes (in reverse order): processes, databases, sockets. */
export function onCleanup(cleanup: () => Promise<void>): void {
  cleanups.push(cleanup);
}

/** Stops every node, closes every socket and drops every database the file made; for afterAll. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A fresh database, migrated and seeded (root) before the nodes start, so they do not race at it. */
export async function freshDatabase(): Promise<string> {
  const name = `cf_two_nodes_${randomBytes(5).toString("hex")}`;
  await adminQuery(`create database "${name}"`);
  cleanups.push(() => adminQuery(`drop database if exists "${name}" with (force)`));
  const url = new URL(serverUrl ?? "");
  url.pathname = `/${name}`;
  const seed = openDatabase({ kind: "postgres", url: url.toString(), maxConnections: 2 });
  try {
    await migrateToLatest(seed.db);
    await runFirstStart(seed.db, { rootPassword: ROOT_PASSWORD, now: () => new Date(), log: { warn() {} } });
  } finally {
    await seed.close();
  }
  return url.toString();
}

export interface Node {
  name: string;
  base: string;
  socketUrl: string;
  /** Everything the process wrote to stdout (its JSON log). */
  output(): string;
}

/** How a node is started beyond its database and bus. */
export interface NodeOptions {
  /** Where its mail goes (the test's catcher). */
  smtpUrl: string;
  /** False: the node queues jobs but runs none (JOBS_WORKER=0). */
  runsJobs: boolean;
  /** More of the environment (an external broker: MQTT_URL, MQTT_CLIENT_ID…). */
  env?: Record<string, string>;
}

export async function startNode(
  name: string,
  databaseUrl: string,
  busUrl: string,
  options: NodeOptions,
): Promise<Node> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), "cellfleet-two-nodes-"));
  const child: ChildProcess = spawn(process.execPath, ["--import", pathToFileURL(tsxLoader).href, mainFile], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      BUS_URL: busUrl,
      PORT: String(port),
      HOST: "127.0.0.1",
      MQTT_PORT: "0",
      SIMULATE: "0",
      DATA_DIR: dataDir,
      CELLFLEET_ROOT_PASSWORD: ROOT_PASSWORD,
      LOG_LEVEL: "info",
      SMTP_URL: options.smtpUrl,
      JOBS_WORKER: options.runsJobs ? "1" : "0",
      LOGIN_RATE_LIMIT: "1000",
      // The nodes of one test (one database) share a bus prefix of their own: two-node tests of
      // other files run at the same time on the same NATS, and must not hear each other.
      BUS_PREFIX: `t${new URL(databaseUrl).pathname.replace(/[^A-Za-z0-9_-]/g, "").slice(-40)}`,
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output = (output + String(chunk)).slice(-20_000);
  });
  child.stderr?.on("data", (chunk) => {
    output = (output + String(chunk)).slice(-20_000);
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 40_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node ${name} exited: ${output}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`node ${name} did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { name, base, socketUrl: `ws://127.0.0.1:${port}/api/ws/`, output: () => output };
}

/** POSTs (or DELETEs) JSON to a node as `token`; answers status and body. */
export async function call(
  node: Node,
  url: string,
  token: string | undefined,
  body: object = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${node.base}${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

export async function signIn(node: Node, username: string, password: string): Promise<string> {
  const answer = await call(node, "/api/login/", undefined, { username, password });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

/** Signs in with a factory password and replaces it, as the profile page makes one do first. */
export async function signInFirstTime(node: Node, username: string, factory: string): Promise<string> {
  const token = await signIn(node, username, factory);
  const changed = await call(node, "/api/profile", token, {
    password: { current: factory, new: `${factory}-New9`, confirm: `${factory}-New9` },
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return token;
}

export async function openReadySocket(node: Node, token: string): Promise<TestSocket> {
  const socket = await openTestSocket(node.socketUrl);
  cleanups.push(async () => socket.ws.close());
  socket.sendJson({ token });
  expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
  return socket;
}

/** The next `devices` message on the socket that carries the device, skipping any other message. */
export async function nextDevicesMessage(
  socket: TestSocket,
  ident: string,
): Promise<Record<string, unknown>> {
  for (;;) {
    const message = (await socket.nextMessage(5000)) as {
      type?: string;
      content?: Array<{ ident?: string }>;
    };
    if (message.type === "devices" && message.content?.some((device) => device.ident === ident))
      return message as Record<string, unknown>;
  }
}

export const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString("hex")}`;

/** The admin a domain made for a test gets, signed in with the password already changed. */
export interface DomainAdmin {
  domainId: string;
  adminName: string;
  adminToken: string;
}

/** Root makes a fresh domain and its admin through `node`; the admin signs in for the first time. */
export async function makeDomainWithAdmin(node: Node): Promise<DomainAdmin> {
  const root = await signInFirstTime(node, "root", ROOT_PASSWORD);
  const domain = await call(node, "/api/domains/new", root, {
    name: unique("company"),
    full_name: "Company LLC",
    tin: "123456789",
    email: "office@company.ru",
    phone: "+7 (912) 345-67-89",
    manager: "Ivan Petrov",
    device_limit: 50,
  });
  expect(domain.status, JSON.stringify(domain.body)).toBe(200);
  const adminName = unique("boss");
  const admin = await call(node, `/api/domain/${domain.body._id}/admins/new`, root, {
    username: adminName,
    full_name: "The Boss",
    email: "",
    password: "Admin-pass-123",
  });
  expect(admin.status, JSON.stringify(admin.body)).toBe(200);
  const adminToken = await signInFirstTime(node, adminName, "Admin-pass-123");
  return { domainId: String(domain.body._id), adminName, adminToken };
}
