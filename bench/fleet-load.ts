// The routers of bench/fleet.ts in one process: raw MQTT 3.1.1 sockets (as bench/ingest-load.ts), from
// one loopback source address (several processes with 127.0.0.2, .3 … lift the 64k ports of one
// address). Usage: fleet-load.ts <gateway url> <source address>; IPC messages:
//   {type: "connect", idents, key}  connects them (BENCH_CONNECT_CONCURRENCY, 500, waiting for their
//     CONNACK at once), keep-alive 60 s with PINGREQ every 30 s;
//   {type: "report", intervalMs, seconds}  each router publishes a board snapshot every intervalMs
//     (starts spread over the interval), QoS 1, and counts PUBACKs;
//     with at most BENCH_MAX_INFLIGHT (20) unacknowledged per router (a full window skips the tick);
//   {type: "stats"}  memory, CPU, sent/acked/failed/skipped/in flight;  {type: "stop"}.
import { createHmac } from "node:crypto";
import net from "node:net";
import { collectTopic, EXAMPLE_BOARD } from "@cellfleet/contract";

const [url = "", localAddress = "127.0.0.1"] = process.argv.slice(2);
const { hostname, port } = new URL(url);
/** CONNECTs in flight at once per load process (BENCH_CONNECT_CONCURRENCY). */
const CONCURRENCY = Number(process.env.BENCH_CONNECT_CONCURRENCY ?? 500);
/**
 * QoS 1 reports a router keeps unacknowledged at most (BENCH_MAX_INFLIGHT): a tick that finds the
 * window full is skipped and counted, so a slow server shows as reports not offered instead of an
 * unbounded queue in the generator or the broker.
 */
const MAX_INFLIGHT = Number(process.env.BENCH_MAX_INFLIGHT ?? 20);

function remainingLength(length: number): Buffer {
  const bytes: number[] = [];
  let rest = length;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}
function utf8Field(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}
function connectPacket(ident: string, token: string): Buffer {
  const variable = Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0xc2, 0x00, 0x3c]);
  const payload = Buffer.concat([utf8Field(ident), utf8Field(ident), utf8Field(token)]);
  return Buffer.concat([
    Buffer.from([0x10]),
    remainingLength(variable.length + payload.length),
    variable,
    payload,
  ]);
}
function publishPacket(topic: Buffer, packetId: number, body: string): Buffer {
  const payload = Buffer.from(body, "utf8");
  const length = topic.length + 2 + payload.length;
  const id = Buffer.alloc(2);
  id.writeUInt16BE(packetId);
  return Buffer.concat([Buffer.from([0x32]), remainingLength(length), topic, id, payload]);
}
const PINGREQ = Buffer.from([0xc0, 0x00]);

interface Router {
  ident: string;
  socket: net.Socket;
  topic: Buffer;
  seq: number;
  inflight: number;
}
const routers: Router[] = [];
let sent = 0;
let acked = 0;
let failed = 0;
let closed = 0;
let skipped = 0;

function token(ident: string, keyHex: string): string {
  return createHmac("sha256", Buffer.from(keyHex, "hex")).update(`cellfleet/v1/${ident}`).digest("hex");
}

// Each socket binds its own source port, counted up from FIRST_PORT: with a source address and no
// port the kernel searches its bind table for a free one (inet_csk_get_port), a search that grows
// with every socket bound and took most of this process's CPU past ~10,000 sockets (real routers come
// from their own addresses and never pay it). Node cannot set IP_BIND_ADDRESS_NO_PORT, so the
// generator picks the ports; one that is taken (a listener on 0.0.0.0) is skipped.
const FIRST_PORT = 10_000;
let nextPort = FIRST_PORT;

function open(ident: string, key: string): Promise<Router | null> {
  return new Promise((resolve) => {
    if (nextPort > 65_535) return resolve(null);
    const socket = net.connect({
      host: hostname,
      port: Number(port),
      localAddress,
      localPort: nextPort++,
      noDelay: true,
    });
    const router: Router = {
      ident,
      socket,
      topic: utf8Field(collectTopic(ident, "board")),
      seq: 0,
      inflight: 0,
    };
    let buffered: Buffer = Buffer.alloc(0);
    let isConnected = false;
    socket.on("data", (chunk: Buffer) => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      while (buffered.length >= 2) {
        const length = buffered[1] ?? 0; // every packet the broker sends us is short
        if (buffered.length < 2 + length) return;
        const type = (buffered[0] ?? 0) >> 4;
        const code = buffered[3];
        buffered = buffered.subarray(2 + length);
        if (type === 2) {
          isConnected = code === 0;
          resolve(isConnected ? router : null);
        } else if (type === 4) {
          router.inflight--;
          acked++;
        }
      }
    });
    let isPortTaken = false;
    socket.on("error", (error: NodeJS.ErrnoException) => {
      isPortTaken = !isConnected && error.code === "EADDRINUSE";
    });
    socket.on("close", () => {
      if (isPortTaken) resolve(open(ident, key));
      else if (!isConnected) resolve(null);
      else closed++;
      failed += router.inflight;
      router.inflight = 0;
    });
    socket.write(connectPacket(ident, token(ident, key)));
  });
}

let pinger: NodeJS.Timeout | null = null;
let reporting: NodeJS.Timeout[] = [];

process.on("message", async (message: Record<string, unknown>) => {
  if (message.type === "connect") {
    const idents = message.idents as string[];
    const key = message.key as string;
    let refused = 0;
    const started = Date.now();
    // Keep-alive 60 s: a ping every 30 s from the start, so routers connected first are not dropped
    // (after 1.5 × keep-alive) while the rest are still connecting.
    pinger ??= setInterval(() => {
      for (const router of routers) router.socket.write(PINGREQ);
    }, 30_000);
    // At most CONCURRENCY CONNECTs waiting for their CONNACK at once, a new one as soon as one is
    // answered (a sliding window: one slow token check does not hold up a whole batch).
    let nextIndex = 0;
    const worker = async () => {
      while (nextIndex < idents.length) {
        const ident = idents[nextIndex++] as string;
        const router = await open(ident, key);
        router ? routers.push(router) : refused++;
      }
    };
    const progress = setInterval(() => {
      const seconds = (Date.now() - started) / 1000;
      console.log(
        `  ${localAddress}: ${routers.length} connected, ${refused} refused in ${seconds.toFixed(0)} s (${(routers.length / seconds).toFixed(0)}/s)`,
      );
    }, 30_000);
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, idents.length) }, worker));
    clearInterval(progress);
    process.send?.({ type: "connected", connected: routers.length, refused, ms: Date.now() - started });
  } else if (message.type === "report") {
    const intervalMs = message.intervalMs as number;
    const until = Date.now() + (message.seconds as number) * 1000;
    routers.forEach((router, index) => {
      const start = setTimeout(
        () => {
          const tick = () => {
            if (Date.now() >= until || router.socket.destroyed) return;
            if (router.inflight >= MAX_INFLIGHT) {
              skipped++;
              return;
            }
            router.seq++;
            router.inflight++;
            sent++;
            const now = Date.now();
            const body = JSON.stringify({ ...EXAMPLE_BOARD, seq: router.seq, ts: now, uptime: router.seq });
            router.socket.write(publishPacket(router.topic, (router.seq % 65535) + 1, body));
          };
          tick();
          reporting.push(setInterval(tick, intervalMs));
        },
        (index / routers.length) * intervalMs,
      );
      reporting.push(start);
    });
    setTimeout(
      () => {
        for (const timer of reporting) clearInterval(timer);
        reporting = [];
      },
      (message.seconds as number) * 1000 + 10,
    );
  } else if (message.type === "stats") {
    const memory = process.memoryUsage();
    const inflight = routers.reduce((sum, router) => sum + router.inflight, 0);
    process.send?.({
      type: "stats",
      rss: memory.rss,
      cpu: process.cpuUsage(),
      sent,
      acked,
      failed,
      closed,
      skipped,
      inflight,
    });
  } else if (message.type === "stop") {
    if (pinger) clearInterval(pinger);
    for (const router of routers) router.socket.destroy();
    process.exit(0);
  }
});
process.send?.({ type: "ready" });
