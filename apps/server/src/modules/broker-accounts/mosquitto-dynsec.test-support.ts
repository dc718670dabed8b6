import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";

// A Mosquitto of the test's own on a free port, configured by the repo's deploy/mosquitto/cellfleet.conf
// (what docs/operations.md tells operators to use) plus the lines only a test decides: where it
// listens, where it keeps its files, and the dynamic-security file made by `mosquitto_ctrl dynsec init`.

const REPO_CONF = path.resolve(import.meta.dirname, "../../../../../deploy/mosquitto/cellfleet.conf");
/** Debian installs the broker in /usr/sbin, which a test runner's PATH may lack. */
const MOSQUITTO = existsSync("/usr/sbin/mosquitto") ? "/usr/sbin/mosquitto" : "mosquitto";

/** A running (or stopped) Mosquitto of a test. */
export interface OwnMosquitto {
  port: number;
  /** The server's account (the plugin's admin), as MQTT_URL. */
  serverUrl: string;
  /** An anonymous-free URL without credentials, for devices that pass their own. */
  url: string;
  /** Stops the broker (SIGTERM: it writes its persistence file) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same files. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const isOpen = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ port, host: "127.0.0.1" }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (isOpen) return;
    if (Date.now() > deadline) throw new Error(`mosquitto did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a Mosquitto with the repo's configuration and the dynamic-security plugin on a free port. */
export async function startOwnMosquitto(): Promise<OwnMosquitto> {
  const dir = mkdtempSync(path.join(tmpdir(), "cellfleet-mosquitto-"));
  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  execFileSync(
    "mosquitto_ctrl",
    ["dynsec", "init", path.join(dir, "dynsec.json"), "cellfleet-server", password],
    {
      stdio: "ignore",
    },
  );
  const conf = [
    readFileSync(REPO_CONF, "utf8"),
    `listener ${port} 127.0.0.1`,
    `persistence_location ${dir}/`,
    `plugin_opt_config_file ${path.join(dir, "dynsec.json")}`,
    // Run as whoever runs the test, so it can read and write its own files.
    `user ${userInfo().username}`,
    `log_dest file ${path.join(dir, "mosquitto.log")}`,
  ].join("\n");
  writeFileSync(path.join(dir, "mosquitto.conf"), `${conf}\n`);
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(MOSQUITTO, ["-c", path.join(dir, "mosquitto.conf")], { stdio: "ignore" });
    await waitForPort(port);
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once("exit", () => resolve());
      running.kill("SIGTERM");
    });
  };
  await start();
  return {
    port,
    serverUrl: `mqtt://cellfleet-server:${password}@127.0.0.1:${port}`,
    url: `mqtt://127.0.0.1:${port}`,
    start,
    stop,
    async close() {
      await stop();
      if (!process.env.KEEP_MOSQUITTO) rmSync(dir, { recursive: true, force: true });
    },
  };
}
