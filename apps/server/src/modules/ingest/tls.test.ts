import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { helloTopic } from "@cellfleet/contract";
import mqtt from "mqtt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDomain } from "../../test/factories";
import { createTestApp, type TestApp } from "../../test/test-app";
import type { DeviceIngest } from "./ingest.runtime";
import { envelope, insertDevice, publishJson, startTestIngest } from "./ingest.test-support";

// MQTT over TLS on the embedded broker (MQTT_TLS_PORT, MQTT_TLS_CERT, MQTT_TLS_KEY), with a
// self-signed certificate made here: the router checks the server against the CA it was given.

let t: TestApp;
let runtime: DeviceIngest;
let dir: string;
let cert: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "cellfleet-tls-"));
  execFileSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
    "-keyout",
    path.join(dir, "key.pem"),
    "-out",
    path.join(dir, "cert.pem"),
  ]);
  cert = readFileSync(path.join(dir, "cert.pem"), "utf8");
  t = await createTestApp();
  runtime = await startTestIngest(t, {
    tls: { port: 0, cert, key: readFileSync(path.join(dir, "key.pem"), "utf8") },
  });
});
afterAll(async () => {
  await runtime?.close();
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

function connectTls(ident: string, password: string, options: { ca?: string; servername?: string }) {
  return mqtt.connectAsync(`mqtts://127.0.0.1:${runtime.gateway.tlsPort}`, {
    clientId: ident,
    username: ident,
    password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    rejectUnauthorized: true,
    ...options,
  });
}

describe("MQTT over TLS", () => {
  it("takes a router's reports when it verifies the server against the CA it was given", async () => {
    const d = await insertDevice(t, (await buildDomain(t)).id);
    const client = await connectTls(d.ident, d.token ?? "", { ca: cert, servername: "localhost" });
    try {
      await publishJson(client, helloTopic(d.ident), {
        ...envelope(1),
        model: "RUTX11",
        firmware: "RUTX_R_00.07.06",
        serial: "1",
        uptime: 5,
        agent_version: "1.0.0",
        modem_count: 1,
      });
      const row = await t.db
        .selectFrom("devices")
        .select(["model"])
        .where("id", "=", d.id)
        .executeTakeFirst();
      expect(row?.model).toBe("RUTX11");
    } finally {
      await client.endAsync();
    }
  });

  it("is refused by a router that does not trust the certificate, and still authenticates devices", async () => {
    const d = await insertDevice(t, (await buildDomain(t)).id);
    // No CA: the system store does not know a self-signed certificate.
    await expect(connectTls(d.ident, d.token ?? "", {})).rejects.toThrow(/self.signed|certificate/i);
    // Trusted, but a wrong token: the same refusal as on the plain port.
    await expect(connectTls(d.ident, "0".repeat(64), { ca: cert, servername: "localhost" })).rejects.toThrow(
      /[Bb]ad username or password|Not authorized/,
    );
    // The plain port stays open beside it.
    expect(runtime.gateway.port).toBeGreaterThan(0);
    expect(runtime.gateway.tlsPort).not.toBe(runtime.gateway.port);
  });

  it("is trusted by the server's MQTT client through NODE_EXTRA_CA_CERTS (a private broker CA, device-protocol 13)", async () => {
    // A process of its own, as the server is: Node reads the variable once, at start.
    const script = `require("mqtt").connectAsync(process.argv[1], { reconnectPeriod: 0, connectTimeout: 5000,
      clientId: "TLSCHECK", username: "TLSCHECK", password: "x" })
      .then(() => console.log("connected"), (e) => console.log(e.code === 4 ? "refused-by-broker" : e.message))`;
    const url = `mqtts://localhost:${runtime.gateway.tlsPort}`;
    // Asynchronously: the broker answering it runs in this process.
    const run = async (env: Record<string, string>) =>
      (
        await promisify(execFile)(process.execPath, ["-e", script, url], {
          cwd: path.resolve(import.meta.dirname, "../../.."),
          env: { ...process.env, NODE_EXTRA_CA_CERTS: "", ...env },
          encoding: "utf8",
        })
      ).stdout.trim();
    // TLS held and the CONNECT reached the broker: its refusal of these credentials is the proof.
    expect(await run({ NODE_EXTRA_CA_CERTS: path.join(dir, "cert.pem") })).toBe("refused-by-broker");
    expect(await run({})).toMatch(/self.signed|certificate/i);
  });
});
