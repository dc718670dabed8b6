import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { SOCKET_CLOSE } from "@cellfleet/contract";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { runFirstStart } from "../../modules/setup/first-start";
import { type MailCatcher, startMailCatcher } from "../../test/mail-catcher";
import { openTestSocket, type TestSocket } from "../../test/socket-client";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { freePort } from "./bus-servers.test-support";

// Two server processes from the same code on one PostgreSQL database and one networked bus (the
// shared NATS on 4222 and Redis on 6379): what one node does reaches the sockets and the session
// cache of the other. PostgreSQL only (PGlite is one process's own), so it runs in the DATABASE_URL pass.

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../..");
const tsxLoader = path.join(repoRoot, "node_modules/tsx/dist/loader.mjs");
const mainFile = path.join(repoRoot, "apps/server/src/main.ts");
const serverUrl = process.env.DATABASE_URL;
const ROOT_PASSWORD = "Two-nodes-root-1";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

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
async function freshDatabase(): Promise<string> {
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

interface Node {
  name: string;
  base: string;
  socketUrl: string;
  /** Everything the process wrote to stdout (its JSON log). */
  output(): string;
}

/** How a node is started beyond its database and bus. */
interface NodeOptions {
  /** Where its mail goes (the test's catcher). */
  smtpUrl: string;
  /** False: the node queues jobs but runs none (JOBS_WORKER=0). */
  runsJobs: boolean;
}

async function startNode(
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
async function call(
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

async function signIn(node: Node, username: string, password: string): Promise<string> {
  const answer = await call(node, "/api/login/", undefined, { username, password });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.token as string;
}

/** Signs in with a factory password and replaces it, as the profile page makes one do first. */
async function signInFirstTime(node: Node, username: string, factory: string): Promise<string> {
  const token = await signIn(node, username, factory);
  const changed = await call(node, "/api/profile", token, {
    password: { current: factory, new: `${factory}-New9`, confirm: `${factory}-New9` },
  });
  expect(changed.status, JSON.stringify(changed.body)).toBe(200);
  return token;
}

async function openReadySocket(node: Node, token: string): Promise<TestSocket> {
  const socket = await openTestSocket(node.socketUrl);
  cleanups.push(async () => socket.ws.close());
  socket.sendJson({ token });
  expect(await socket.nextMessage()).toMatchObject({ type: "ready" });
  return socket;
}

/** The next `devices` message on the socket that carries the device, skipping any other message. */
async function nextDevicesMessage(socket: TestSocket, ident: string): Promise<Record<string, unknown>> {
  for (;;) {
    const message = (await socket.nextMessage(5000)) as {
      type?: string;
      content?: Array<{ ident?: string }>;
    };
    if (message.type === "devices" && message.content?.some((device) => device.ident === ident))
      return message as Record<string, unknown>;
  }
}

const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString("hex")}`;

describe.skipIf(!serverUrl).each([
  { bus: "nats", busUrl: "nats://127.0.0.1:4222" },
  { bus: "redis", busUrl: "redis://127.0.0.1:6379" },
])("two server nodes on one PostgreSQL and the $bus bus", ({ bus, busUrl }) => {
  it("share device updates, session ends, session-cache clears and jobs", { timeout: 90_000 }, async () => {
    const databaseUrl = await freshDatabase();
    const mail: MailCatcher = await startMailCatcher();
    cleanups.push(() => mail.close());
    // Node B only serves (JOBS_WORKER=0): every job it queues must be run by node A.
    const [a, b] = await Promise.all([
      startNode("A", databaseUrl, busUrl, { smtpUrl: mail.url, runsJobs: true }),
      startNode("B", databaseUrl, busUrl, { smtpUrl: mail.url, runsJobs: false }),
    ]);
    for (const node of [a, b]) expect(node.output()).toContain(`"bus":"${bus}"`);

    // Root makes a domain and its admin through node B.
    const root = await signInFirstTime(b, "root", ROOT_PASSWORD);
    const domain = await call(b, "/api/domains/new", root, {
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
    const admin = await call(b, `/api/domain/${domain.body._id}/admins/new`, root, {
      username: adminName,
      full_name: "The Boss",
      email: "",
      password: "Admin-pass-123",
    });
    expect(admin.status, JSON.stringify(admin.body)).toBe(200);
    const adminToken = await signInFirstTime(b, adminName, "Admin-pass-123");

    // (a) A socket on node A hears of a device created, then edited, through node B.
    const watcher = await openReadySocket(a, adminToken);
    const ident = `NODES${randomBytes(4).toString("hex").toUpperCase()}`;
    const created = await call(b, "/api/devices/new", adminToken, { ident, description: "first" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(await nextDevicesMessage(watcher, ident)).toMatchObject({ type: "devices" });
    const edited = await call(b, `/api/device/${created.body._id}/edit`, adminToken, {
      description: "edited on B",
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const update = await nextDevicesMessage(watcher, ident);
    expect(update).toMatchObject({ type: "devices", content: [{ ident, description: "edited on B" }] });

    // (b) Signing out on node B closes that session's socket on node A, and only that one.
    const secondToken = await signIn(a, adminName, "Admin-pass-123-New9");
    const leaving = await openReadySocket(a, secondToken);
    expect((await call(b, "/api/logout/", secondToken)).status).toBe(200);
    expect(await leaving.closed).toMatchObject({ code: SOCKET_CLOSE.sessionEnded });
    expect(watcher.ws.readyState).toBe(watcher.ws.OPEN);

    // (c) Node A's cached session forgets at once what node B changed: the user blocked on B is
    // refused on A by the very next call, well inside the cache's 5 seconds.
    const operatorName = unique("operator");
    const operator = await call(b, "/api/user/new", adminToken, {
      username: operatorName,
      full_name: "An Operator",
      role: 4,
      email: "",
      phone: "",
      password: "Operator-pass-1",
    });
    expect(operator.status, JSON.stringify(operator.body)).toBe(200);
    const operatorToken = await signInFirstTime(a, operatorName, "Operator-pass-1");
    // A route that saves nothing (the profile route may, so it clears the cache on every call).
    expect((await call(a, "/api/accounting/self", operatorToken)).status).toBe(200);
    expect((await call(a, "/api/accounting/self", operatorToken)).status).toBe(200); // from A's cache
    const blockedAt = Date.now();
    const blocked = await call(b, `/api/user/${operator.body._id}`, adminToken, { blocked: true });
    expect(blocked.status, JSON.stringify(blocked.body)).toBe(200);
    const refused = await call(a, "/api/accounting/self", operatorToken);
    expect(Date.now() - blockedAt).toBeLessThan(5000);
    expect(refused.status, JSON.stringify(refused.body)).not.toBe(200);
    expect(refused.body.code).toMatch(/BLOCKED|SESSION|TOKEN/);

    // (d) Jobs queued on node B run once, on node A, woken through the bus: a registration key
    // requested from B reaches the mailbox exactly once, well before A's 1 s poll would find it.
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      const email = `${unique("keys")}@company.ru`.toLowerCase();
      const askedAt = Date.now();
      const asked = await call(b, "/api/registry/code", undefined, { email });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      await mail.waitFor(email, { timeoutMs: 10_000 });
      delays.push(Date.now() - askedAt);
      expect(mail.mails.filter((caught) => caught.to.includes(email))).toHaveLength(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 1500)); // a second delivery would show by now
    expect(mail.mails).toHaveLength(8);
    // With only A's poll every second the delays would spread evenly over 0-1 s (and more); woken
    // through the bus, most are SMTP's few milliseconds.
    const quick = delays.filter((ms) => ms < 300).length;
    expect(quick, `delays ${delays.join(", ")} ms`).toBeGreaterThanOrEqual(6);
    expect(b.output()).toContain("JOBS_WORKER=0");
  });
});
