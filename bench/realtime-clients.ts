// The browsers of bench/realtime.ts: raw WebSocket clients in a child process, each signing in over
// HTTP once and opening its share of sockets that subscribe as apps/web does (GET /api/ws/, the hello
// `{ token, views }`, then `ready`). A list socket names the first page's rows read over HTTP (POST
// /api/devices/, as the dashboard); a device-page socket names one router. IPC:
//   {type: "open", baseUrls, username, password, sockets: [{node, view}], pageSize}  → {type: "opened"}
//   {type: "mark"}  starts the measured window (drops what was counted so far);
//   {type: "stats"} → latencies (collects: now − the report's device time, at the receiving socket;
//     device rows: now − the row's server-stamped `time`), bytes and frames received, rereads, closes.
import type { SocketView } from "@cellfleet/contract";
import WebSocket from "ws";

interface OpenMessage {
  type: "open";
  baseUrls: string[];
  username: string;
  password: string;
  pageSize: number;
  /**
   * One entry a socket: the node it connects to, and a device page's router id, or null for the
   * list's first page; `whole`: a client of the first protocol (a hello without views), which gets
   * every push of the domain whole (bench/ingest.ts reads the pipeline through one).
   */
  sockets: Array<{ node: number; device: string | null; whole?: boolean }>;
}

let collectLatencies: number[] = [];
let rowLatencies: number[] = [];
let bytes = 0;
let frames = 0;
let rereads = 0;
let closedEarly = 0;
const sockets: WebSocket[] = [];
let isStopping = false;

async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!response.ok) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** The first page of the device list as the dashboard reads it (NDJSON lines; rows carry `_id`). */
async function firstPageIds(baseUrl: string, token: string, size: number): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/devices/`, {
    method: "POST",
    headers: { "content-type": "application/json", token },
    body: JSON.stringify({ page: 0, size, token }),
  });
  if (!response.ok) throw new Error(`device list: ${response.status} ${await response.text()}`);
  const ids: string[] = [];
  for (const line of (await response.text()).split("\n")) {
    if (!line.trim()) continue;
    const parsed = JSON.parse(line) as { _id?: string };
    if (typeof parsed._id === "string") ids.push(parsed._id);
  }
  return ids;
}

function onFrame(data: WebSocket.RawData): void {
  const text = data.toString();
  bytes += Buffer.byteLength(text);
  frames += 1;
  const now = Date.now();
  const message = JSON.parse(text) as {
    type: string;
    action?: string;
    content?: Array<Record<string, unknown>>;
  };
  if (message.type === "collects") {
    for (const item of message.content ?? [])
      if (typeof item.device_time === "number") collectLatencies.push(now - item.device_time);
  } else if (message.type === "devices" && message.action === "update") {
    for (const item of message.content ?? [])
      if (typeof item.time === "number") rowLatencies.push(now - item.time);
  } else if (message.type === "reread") rereads += 1;
}

function openSocket(baseUrl: string, token: string, views: SocketView[] | null): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/api/ws/`);
    let isReady = false;
    socket.on("open", () => socket.send(JSON.stringify(views ? { token, views } : { token })));
    socket.on("message", (data) => {
      if (!isReady) {
        const message = JSON.parse(data.toString()) as { type: string };
        if (message.type === "ready") {
          isReady = true;
          sockets.push(socket);
          resolve();
        } else reject(new Error(`socket: ${data.toString()}`));
        return;
      }
      onFrame(data);
    });
    socket.on("error", reject);
    socket.on("close", () => {
      if (!isStopping && isReady) closedEarly += 1;
    });
  });
}

async function open(message: OpenMessage): Promise<void> {
  const tokens = await Promise.all(
    message.baseUrls.map((baseUrl) => signIn(baseUrl, message.username, message.password)),
  );
  const pageIds = await firstPageIds(message.baseUrls[0] as string, tokens[0] as string, message.pageSize);
  // At most 100 handshakes at once, as browsers coming back after a restart would.
  let next = 0;
  const worker = async () => {
    while (next < message.sockets.length) {
      const entry = message.sockets[next++];
      if (!entry) break;
      const views: SocketView[] | null = entry.whole
        ? null
        : entry.device === null
          ? [{ kind: "devices", ids: pageIds }]
          : [{ kind: "device", id: entry.device }];
      await openSocket(message.baseUrls[entry.node] as string, tokens[entry.node] as string, views);
    }
  };
  await Promise.all(Array.from({ length: 100 }, worker));
}

process.on("message", async (message: { type: string }) => {
  if (message.type === "open") {
    try {
      await open(message as OpenMessage);
      process.send?.({ type: "opened", sockets: sockets.length });
    } catch (error) {
      process.send?.({ type: "opened", sockets: sockets.length, error: String(error) });
    }
  } else if (message.type === "mark") {
    collectLatencies = [];
    rowLatencies = [];
    bytes = 0;
    frames = 0;
    rereads = 0;
    process.send?.({ type: "marked" });
  } else if (message.type === "stats") {
    process.send?.({
      type: "stats",
      collectLatencies,
      rowLatencies,
      bytes,
      frames,
      rereads,
      closedEarly,
      open: sockets.filter((socket) => socket.readyState === WebSocket.OPEN).length,
      cpu: process.cpuUsage(),
    });
  } else if (message.type === "stop") {
    isStopping = true;
    for (const socket of sockets) socket.terminate();
    process.exit(0);
  }
});
process.send?.({ type: "ready" });
