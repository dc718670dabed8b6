// The load side of bench/ingest.ts, run as a child process so it has a core of its own: N virtual
// devices, each keeping a window of QoS 1 collect reports in flight against the gateway, counting
// what was acknowledged. Usage (from ingest.ts): ingest-load.ts <url> <seconds> <window>, then the
// devices ({ident, key}[]) as the first IPC message (a fleet of thousands does not fit in argv).
//
// It speaks MQTT 3.1.1 over plain sockets (CONNECT, PUBLISH QoS 1, PUBACK) rather than through
// mqtt.js: the load generator shares the machine's two cores with the server under test, and the
// client library cost about 45 µs of CPU a report, a quarter of all the CPU a report cost. Real
// routers are elsewhere; the cheaper the generator, the more the figures measure the server.
import net from "node:net";
import {
  collectTopic,
  deriveDeviceToken,
  EXAMPLE_BOARD,
  EXAMPLE_EVENT,
  EXAMPLE_MODEMS,
  eventTopic,
} from "@cellfleet/contract";

const [url = "", secondsText = "10", windowText = "20"] = process.argv.slice(2);
const devices = await new Promise<Array<{ ident: string; key: string }>>((resolve) =>
  process.once("message", (message) => resolve(message as Array<{ ident: string; key: string }>)),
);
const durationMs = Number(secondsText) * 1000;
const window = Number(windowText);
/**
 * BENCH_RATE: reports a second offered by the whole fleet, each router on an even schedule (its share
 * of the rate), `window` still the most it keeps unacknowledged; unset, each router sends the moment
 * it has room in its window (closed loop, the saturation figures).
 */
const rate = Number(process.env.BENCH_RATE ?? 0);
const gapMs = rate > 0 ? (1000 * devices.length) / rate : 0;
/**
 * BENCH_EVENT_EVERY: every Nth report of a router is an event (the protocol's example, its seq the
 * report's), so batches carry events and the outbox event as well as collects; 0 (unset) sends none.
 */
const eventEvery = Number(process.env.BENCH_EVENT_EVERY ?? 0);
const { hostname, port } = new URL(url);
// The protocol's own examples (docs/device-protocol.md), with the counters and the signal moving so
// that every report is a change and lands in history.
const [exampleModem] = EXAMPLE_MODEMS.modems;

function modems(seq: number, ts: number) {
  return JSON.stringify({
    ...EXAMPLE_MODEMS,
    seq,
    ts,
    modems: [
      {
        ...exampleModem,
        rx: (exampleModem?.rx ?? 0) + seq * 1500,
        tx: (exampleModem?.tx ?? 0) + seq * 300,
        uptime: (exampleModem?.uptime ?? 0) + seq,
        rsrp: -94 - (seq % 7),
        csq: 10 + (seq % 20),
      },
    ],
  });
}

function board(seq: number, ts: number) {
  return JSON.stringify({
    ...EXAMPLE_BOARD,
    seq,
    ts,
    uptime: EXAMPLE_BOARD.uptime + seq,
    cpu_load: seq % 100,
    memory_free: EXAMPLE_BOARD.memory_free - (seq % 1000),
  });
}

let acked = 0;
let sent = 0;
let failed = 0;

/** MQTT's variable-length "remaining length". */
function remainingLength(length: number): Buffer {
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}

function utf8Field(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function connectPacket(clientId: string, username: string, password: string): Buffer {
  const variable = Buffer.from([0x00, 0x04, 0x4d, 0x51, 0x54, 0x54, 0x04, 0xc2, 0x00, 0x3c]);
  const payload = Buffer.concat([utf8Field(clientId), utf8Field(username), utf8Field(password)]);
  return Buffer.concat([
    Buffer.from([0x10]),
    remainingLength(variable.length + payload.length),
    variable,
    payload,
  ]);
}

function publishPacket(topic: Buffer, packetId: number, body: string): Buffer {
  const payloadLength = Buffer.byteLength(body);
  const length = topic.length + 2 + payloadLength;
  const prefix = remainingLength(length);
  const packet = Buffer.allocUnsafe(1 + prefix.length + length);
  packet[0] = 0x32; // PUBLISH, QoS 1
  prefix.copy(packet, 1);
  let at = 1 + prefix.length;
  at += topic.copy(packet, at);
  packet.writeUInt16BE(packetId, at);
  packet.write(body, at + 2, "utf8");
  return packet;
}

/**
 * One device: connects, then keeps `window` reports in flight until the deadline, counting PUBACKs.
 * Answers once every report it sent is acknowledged or the connection is gone.
 */
async function connectDevice(device: { ident: string; key: string }) {
  const socket = net.connect({ host: hostname, port: Number(port), noDelay: true });
  const topics = {
    board: utf8Field(collectTopic(device.ident, "board")),
    modems: utf8Field(collectTopic(device.ident, "modems")),
    event: utf8Field(eventTopic(device.ident)),
  };
  let buffered: Buffer = Buffer.alloc(0);
  let onPacket: (type: number, body: Buffer) => void = () => {};
  socket.on("data", (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    for (;;) {
      if (buffered.length < 2) return;
      let length = 0;
      let multiplier = 1;
      let at = 1;
      let byte = 0;
      do {
        if (at >= buffered.length) return;
        byte = buffered[at++] ?? 0;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
      } while (byte & 0x80);
      if (buffered.length < at + length) return;
      const type = (buffered[0] ?? 0) >> 4;
      const packetBody = buffered.subarray(at, at + length);
      buffered = buffered.subarray(at + length);
      onPacket(type, packetBody);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    onPacket = (type, packetBody) => {
      if (type === 2 && packetBody[1] === 0) resolve();
      else reject(new Error(`${device.ident}: connection refused (${type}/${packetBody[1]})`));
    };
    void deriveDeviceToken(device.ident, device.key).then((token) =>
      socket.write(connectPacket(device.ident, device.ident, token)),
    );
  });
  return {
    run: () =>
      new Promise<void>((resolve) => {
        let seq = 0;
        let inflight = 0;
        // Paced: this router's next report is due at dueAt (spread over the first gap).
        let dueAt = started + Math.random() * gapMs;
        let timer: NodeJS.Timeout | null = null;
        const finish = () => {
          socket.end();
          resolve();
        };
        const pump = () => {
          while (inflight < window && Date.now() < deadline) {
            if (gapMs > 0) {
              const wait = dueAt - Date.now();
              if (wait > 0) {
                timer ??= setTimeout(() => {
                  timer = null;
                  pump();
                }, wait);
                return;
              }
              dueAt += gapMs;
            }
            seq++;
            inflight++;
            sent++;
            const now = Date.now();
            const packetId = (seq % 65535) + 1;
            if (eventEvery > 0 && seq % eventEvery === 0) {
              socket.write(
                publishPacket(topics.event, packetId, JSON.stringify({ ...EXAMPLE_EVENT, seq, ts: now })),
              );
              continue;
            }
            const isModems = seq % 2 === 0;
            const body = isModems ? modems(seq, now) : board(seq, now);
            socket.write(publishPacket(isModems ? topics.modems : topics.board, packetId, body));
          }
          if (inflight === 0) finish();
        };
        onPacket = (type) => {
          if (type !== 4) return; // PUBACK
          inflight--;
          acked++;
          if (Date.now() < deadline) pump();
          else if (inflight === 0) finish();
        };
        socket.once("close", () => {
          if (timer) clearTimeout(timer);
          failed += inflight;
          inflight = 0;
          resolve();
        });
        pump();
      }),
  };
}

// Every device connects first; the clock starts when all are in, so slow connects do not count.
const connected = await Promise.all(devices.map(connectDevice));
const started = Date.now();
const deadline = started + durationMs;
await Promise.all(connected.map((device) => device.run()));
process.send?.({ sent, acked, failed, elapsedMs: Date.now() - started, cpu: process.cpuUsage() });
