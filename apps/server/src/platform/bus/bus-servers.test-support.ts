import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { connect, createServer } from "node:net";

/** A bus server of the test's own, on a free port, that the test may stop and start again. */
export interface OwnBusServer {
  url: string;
  /** Kills the process (SIGKILL: the server vanishes as in a crash) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port and waits until it accepts connections. */
  start(): Promise<void>;
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A prefix no other test (or engineer) shares, so shared bus servers keep tests apart. */
export function uniqueBusPrefix(separator: "." | ":"): string {
  return `cftest${separator}${randomBytes(5).toString("hex")}${separator}`;
}

async function acceptsConnections(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const isUp = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (isUp) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function ownServer(command: string, args: string[], url: string, port: number): OwnBusServer {
  let child: ChildProcess | null = null;
  const server: OwnBusServer = {
    url,
    async start() {
      child = spawn(command, args, { stdio: "ignore" });
      await acceptsConnections(port);
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once("exit", () => resolve());
        running.kill("SIGKILL");
      });
    },
  };
  return server;
}

/** Where an own server listens and whether it wants a password. */
export interface OwnBusServerOptions {
  password?: string;
  port: number;
}

/** `nats-server` (Debian's, /usr/sbin) on a free port, started; with a password when given one. */
export async function startOwnNatsServer(password?: string): Promise<OwnBusServer> {
  const server = ownNatsServer({ password, port: await freePort() });
  await server.start();
  return server;
}

/** `nats-server` on the given port, not started yet. */
export function ownNatsServer({ password, port }: OwnBusServerOptions): OwnBusServer {
  const auth = password ? ["--user", "cellfleet", "--pass", password] : [];
  return ownServer(
    "/usr/sbin/nats-server",
    ["-a", "127.0.0.1", "-p", String(port), ...auth],
    password ? `nats://cellfleet:${password}@127.0.0.1:${port}` : `nats://127.0.0.1:${port}`,
    port,
  );
}

/** `redis-server` on a free port without persistence, started; with a password when given one. */
export async function startOwnRedisServer(password?: string): Promise<OwnBusServer> {
  const server = ownRedisServer({ password, port: await freePort() });
  await server.start();
  return server;
}

/** `redis-server` on the given port without persistence, not started yet. */
export function ownRedisServer({ password, port }: OwnBusServerOptions): OwnBusServer {
  const binary = execFileSync("which", ["redis-server"]).toString().trim();
  const auth = password ? ["--requirepass", password] : [];
  return ownServer(
    binary,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", ...auth],
    password ? `redis://:${password}@127.0.0.1:${port}` : `redis://127.0.0.1:${port}`,
    port,
  );
}

/** Resolves once `check` holds, polling; fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
