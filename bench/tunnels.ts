// Remote access under load (issue 29): BENCH_SESSIONS (100) terminal sessions open at once, one per
// router, each typing a key every BENCH_KEY_INTERVAL_MS (100) and waiting for its echo. The real app
// listening on a port (the terminal sockets, its SSH endpoint), the embedded broker and ingest; the
// routers in the simulator's CLI (each dials out on `tunnel_open` and serves its restricted shell).
// Keystroke→echo is taken in this process, the browser's side: from the socket's `input` to the
// `output` frame carrying that key back, so it spans socket → console → SSH → router's shell → back.

import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import WebSocket from "ws";
import { loopbackTunnelConfig, startFleetConsole } from "./fleet-console";

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const KEYS = Number(process.env.BENCH_KEYS ?? 50);
const KEY_INTERVAL_MS = Number(process.env.BENCH_KEY_INTERVAL_MS ?? 100);
const ENGINE = (process.env.BENCH_ENGINE ?? "postgres") as "postgres" | "pglite";

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** One browser terminal: the text it received so far, and a wait for more. */
function openTerminal(url: string, token: string) {
  const ws = new WebSocket(url);
  let received = "";
  let waiter: { text: string; from: number; resolve: () => void } | null = null;
  ws.on("message", (data) => {
    const message = JSON.parse(String(data)) as { type: string; data?: string; reason?: string };
    if (message.type === "output") received += message.data ?? "";
    if (message.type === "ended") throw new Error(`a session ended: ${message.reason}`);
    if (waiter && received.indexOf(waiter.text, waiter.from) >= 0) {
      const done = waiter.resolve;
      waiter = null;
      done();
    }
  });
  const opened = new Promise<void>((resolve, reject) => {
    ws.once("open", () => {
      ws.send(JSON.stringify({ type: "hello", token, cols: 80, rows: 24 }));
      resolve();
    });
    ws.once("error", reject);
  });
  return {
    opened,
    /** Resolves once `text` arrives after what was received so far. */
    expect(text: string): Promise<void> {
      const from = received.length;
      return new Promise((resolve) => {
        waiter = { text, from, resolve };
      });
    },
    type: (data: string) => ws.send(JSON.stringify({ type: "input", data })),
    close: () => ws.close(),
  };
}

async function main(): Promise<void> {
  const fleet = await startFleetConsole({
    engine: ENGINE,
    name: "tunbench",
    prefix: "TUN",
    routers: SESSIONS,
    people: { admin: { role: 2, is_junior: false } },
    isListening: true,
    config: loopbackTunnelConfig("tunbench"),
  });
  try {
    await fleet.connected();
    const admin = await fleet.login("admin");
    const port = (fleet.app.server.address() as AddressInfo).port;
    const devices = await fleet.db
      .selectFrom("devices")
      .select("id")
      .where("domain_id", "=", fleet.domainId)
      .execute();
    const load = loadavg().map((value) => value.toFixed(2));
    const cpuStart = process.cpuUsage();

    // Every session asked for and opened at once; the time until its shell's prompt shows.
    const openStart = performance.now();
    const openTimes: number[] = [];
    const terminals = await Promise.all(
      devices.map(async (device) => {
        const started = performance.now();
        const created = await fleet.app.inject({
          method: "POST",
          url: "/api/tunnels",
          headers: { token: admin },
          payload: { device_id: device.id, minutes: 30 },
        });
        if (created.statusCode !== 200) throw new Error(created.body);
        const terminal = openTerminal(
          `ws://127.0.0.1:${port}/api/tunnel/${created.json()._id}/terminal`,
          admin,
        );
        const prompt = terminal.expect("~# ");
        await terminal.opened;
        await prompt;
        openTimes.push(performance.now() - started);
        return terminal;
      }),
    );
    const allOpenMs = performance.now() - openStart;

    // Each session types KEYS keys, one every KEY_INTERVAL_MS, each waiting for its own echo.
    const echoes: number[] = [];
    const typeStart = performance.now();
    await Promise.all(
      terminals.map(async (terminal, index) => {
        await new Promise((resolve) => setTimeout(resolve, (index * KEY_INTERVAL_MS) / SESSIONS));
        for (let n = 0; n < KEYS; n++) {
          const key = String.fromCharCode(97 + ((index + n) % 26));
          const echo = terminal.expect(key);
          const sent = performance.now();
          terminal.type(key);
          await echo;
          echoes.push(performance.now() - sent);
          await new Promise((resolve) => setTimeout(resolve, KEY_INTERVAL_MS));
        }
      }),
    );
    const typeSeconds = (performance.now() - typeStart) / 1000;
    const cpu = process.cpuUsage(cpuStart);
    for (const terminal of terminals) terminal.close();

    console.log(
      `remote access benchmark (${ENGINE}): ${SESSIONS} terminal sessions at once, load average ${load.join(" ")} at the start\n` +
        `  open (ask → prompt): p50 ${ms(percentile(openTimes, 50))}, p99 ${ms(percentile(openTimes, 99))}, all ${SESSIONS} open in ${ms(allOpenMs)}\n` +
        `  keystroke → echo: ${echoes.length} keys (${(echoes.length / typeSeconds).toFixed(0)}/s), p50 ${ms(percentile(echoes, 50))}, p99 ${ms(percentile(echoes, 99))}, max ${ms(Math.max(...echoes))}\n` +
        `  CPU of the console's process (server, broker, these clients): ${((cpu.user + cpu.system) / 1000 / typeSeconds / 10).toFixed(0)}% of a core over the run`,
    );
  } finally {
    await fleet.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
