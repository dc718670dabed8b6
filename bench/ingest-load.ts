// The load side of bench/ingest.ts, run as a child process so it has a core of its own: N virtual
// devices, each keeping a window of QoS 1 collect reports in flight against the gateway, counting
// what was acknowledged. Usage (from ingest.ts): ingest-load.ts <url> <json devices> <seconds> <window>
import { collectTopic, deriveDeviceToken } from "@cellfleet/contract";
import mqtt from "mqtt";

const [url = "", devicesJson = "[]", secondsText = "10", windowText = "20"] = process.argv.slice(2);
const devices = JSON.parse(devicesJson) as Array<{ ident: string; key: string }>;
const durationMs = Number(secondsText) * 1000;
const window = Number(windowText);

function modems(seq: number, ts: number) {
  return JSON.stringify({
    v: 1,
    seq,
    ts,
    modems: [
      {
        id: "1-1",
        state: 1,
        primary: true,
        mode: "LTE",
        sim: 1,
        operator: "MegaFon",
        ip: "10.174.22.91",
        module: "Quectel EC25-E",
        band: "B3",
        signal: 72,
        imei: "866758041234567",
        iccid: "8970102123456789012",
        imsi: "250021234567890",
        rx: 1532918112 + seq * 1500,
        tx: 204117345 + seq * 300,
        uptime: 80112 + seq,
        rsrq: -9.5,
        rssi: -67,
        rsrp: -94 - (seq % 7),
        sinr: 13.2,
        csq: 10 + (seq % 20),
      },
    ],
  });
}

function board(seq: number, ts: number) {
  return JSON.stringify({
    v: 1,
    seq,
    ts,
    model: "RUT955",
    firmware: "RUT9_R_00.07.06.10",
    serial: "1109876543",
    hostname: "RUT955",
    uptime: 86400 + seq,
    cpu_load: seq % 100,
    memory_total: 134217728,
    memory_free: 61865984 - (seq % 1000),
    temperature: 41.2,
  });
}

let acked = 0;
let sent = 0;
let failed = 0;

// Every device connects first; the clock starts when all are in, so slow connects do not count.
const clients = await Promise.all(
  devices.map(async (device) => ({
    ident: device.ident,
    client: await mqtt.connectAsync(url, {
      clientId: device.ident,
      username: device.ident,
      password: await deriveDeviceToken(device.ident, device.key),
      reconnectPeriod: 0,
      connectTimeout: 120_000,
    }),
  })),
);
const started = Date.now();
const deadline = started + durationMs;

async function runDevice({ ident, client }: { ident: string; client: mqtt.MqttClient }): Promise<void> {
  let seq = 0;
  let inflight = 0;
  await new Promise<void>((resolve) => {
    const pump = () => {
      while (inflight < window && Date.now() < deadline) {
        seq++;
        inflight++;
        sent++;
        const type = seq % 2 === 0 ? "modems" : "board";
        const now = Date.now();
        const body = type === "modems" ? modems(seq, now) : board(seq, now);
        client.publish(collectTopic(ident, type), body, { qos: 1 }, (error) => {
          inflight--;
          if (error) failed++;
          else acked++;
          if (Date.now() < deadline) pump();
          else if (inflight === 0) resolve();
        });
      }
      if (inflight === 0) resolve();
    };
    pump();
  });
  await client.endAsync();
}

await Promise.all(clients.map(runDevice));
process.send?.({ sent, acked, failed, elapsedMs: Date.now() - started });
