import { mkdtemp } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type {
  DomainSettings,
  RemoteAccessSettings,
  TerminalServerMessage,
  TunnelKind,
  TunnelSession,
} from "@cellfleet/contract";
import { expect } from "vitest";
import WebSocket from "ws";
import { type ActionsFixture, openActionsFixture } from "../actions/actions.test-support";

// A console with its broker, simulated routers, and an SSH endpoint on a free port, for remote access.

/** A browser's terminal: what the server sent, and what to type. */
export interface TestTerminal {
  messages: TerminalServerMessage[];
  /** When each output arrived (ms) and its bytes: to measure the bandwidth cap. */
  arrivals: { at: number; bytes: number; data: string }[];
  /** Everything the router's shell printed so far. */
  output(): string;
  type(data: string): void;
  /** Waits until the output holds `text` (or the session ended). */
  waitForOutput(text: string, timeoutMs?: number): Promise<string>;
  /** Resolves with the `ended` message. */
  ended: Promise<Extract<TerminalServerMessage, { type: "ended" }>>;
  close(): void;
}

/** Opens the actions fixture with the tunnel endpoint on a free port and its host key in a temp folder. */
export async function openTunnelsFixture(
  options: {
    minuteMs?: number;
    routerSshPort?: number;
    routerWebPort?: number;
    /** A wildcard host (`*.tunnel.test`) served on `webPort`; else a port per session. */
    webHost?: { pattern: string; port: number };
  } = {},
): Promise<ActionsFixture> {
  const fixture = await openActionsFixture({
    tunnelMinuteMs: options.minuteMs,
    tunnelRouterSshPort: options.routerSshPort,
    tunnelRouterWebPort: options.routerWebPort,
  });
  const keyDir = await mkdtemp(path.join(os.tmpdir(), "cellfleet-tunnel-"));
  fixture.t.config.tunnel = {
    sshPort: 0,
    sshHost: "127.0.0.1",
    hostKeyFile: path.join(keyDir, "host_key"),
    web: {
      hostPattern: options.webHost?.pattern ?? null,
      scheme: "http",
      consoleHost: "127.0.0.1",
      ports: options.webHost ? [options.webHost.port, options.webHost.port] : [0, 0],
      nodeHost: "127.0.0.1",
    },
  };
  return fixture;
}

/** POST /api/tunnels as `token`: the session, asserting 200. */
export async function requestTunnel(
  f: ActionsFixture,
  token: string,
  deviceId: string,
  minutes = 30,
  kind: TunnelKind = "terminal",
): Promise<TunnelSession> {
  const response = await f.post(token, "/api/tunnels", { device_id: deviceId, minutes, kind });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<TunnelSession>();
}

/** Opens the terminal socket of session `id` and sends the hello. */
export async function openTerminal(f: ActionsFixture, token: string, id: string): Promise<TestTerminal> {
  const port = (f.t.app.server.address() as AddressInfo).port;
  return openTerminalAt(`http://127.0.0.1:${port}`, token, id);
}

/** Opens the terminal socket of session `id` on the node at `base` (http://host:port) and sends the hello. */
export async function openTerminalAt(base: string, token: string, id: string): Promise<TestTerminal> {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}/api/tunnel/${id}/terminal`);
  const messages: TerminalServerMessage[] = [];
  const arrivals: { at: number; bytes: number; data: string }[] = [];
  let resolveEnded: (message: Extract<TerminalServerMessage, { type: "ended" }>) => void = () => {};
  const ended = new Promise<Extract<TerminalServerMessage, { type: "ended" }>>((resolve) => {
    resolveEnded = resolve;
  });
  const listeners = new Set<() => void>();
  ws.on("message", (data) => {
    const message = JSON.parse(data.toString()) as TerminalServerMessage;
    messages.push(message);
    if (message.type === "output") {
      arrivals.push({ at: performance.now(), bytes: Buffer.byteLength(message.data), data: message.data });
    }
    if (message.type === "ended") resolveEnded(message);
    for (const listener of listeners) listener();
  });
  ws.on("close", () => resolveEnded({ type: "ended", reason: null, code: "closed" }));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  ws.send(JSON.stringify({ type: "hello", token, cols: 80, rows: 24 }));
  const output = () =>
    messages
      .filter((message) => message.type === "output")
      .map((message) => (message as { data: string }).data)
      .join("");
  return {
    messages,
    arrivals,
    output,
    ended,
    type: (data) => ws.send(JSON.stringify({ type: "input", data })),
    waitForOutput: (text, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (output().includes(text)) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(output());
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(
              `no "${text}" in the terminal within ${timeoutMs} ms: ${JSON.stringify(messages).slice(-500)}`,
            ),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      }),
    close: () => ws.close(),
  };
}

/** Sets the domain's remote-access limits through the settings call, as its admin would. */
export async function setRemoteAccessLimits(
  f: ActionsFixture,
  adminToken: string,
  limits: Partial<RemoteAccessSettings>,
): Promise<void> {
  const current = await f.post(adminToken, "/api/settings/all");
  expect(current.statusCode, current.body).toBe(200);
  const settings = current.json<{ settings: DomainSettings }>().settings;
  const saved = await f.t.app.inject({
    method: "PATCH",
    url: "/api/settings/domains-all",
    headers: { token: adminToken },
    payload: { ...settings, remote_access: { ...settings.remote_access, ...limits } },
  });
  expect(saved.statusCode, saved.body).toBe(200);
}
