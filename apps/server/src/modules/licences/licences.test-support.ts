import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LicensePayload } from "@cellfleet/contract";
// The vendor's real service (its own app), started on loopback for the console's tests.
import { addKey, type NewKeyOptions, setBanned } from "../../../../license-service/src/admin";
import { createLicenseServer } from "../../../../license-service/src/server";
import { generateSigningKeys, loadPrivateKey, signLicense } from "../../../../license-service/src/signing";
import { createKeyStore } from "../../../../license-service/src/store";

/** How the loopback front answers: through to the service, refusing connections, a 500, or a forged body. */
export type FrontMode = "pass" | "down" | "error500" | "tamper";

/**
 * The licence service on a free loopback port, behind a front that can play the network's
 * failures: the service away (connections reset), a 500, or an answer altered on the way.
 */
export interface LicenceServiceHarness {
  url: string;
  publicKey: string;
  mode: FrontMode;
  addKey(options: NewKeyOptions): Promise<string>;
  ban(key: string, banned: boolean): Promise<void>;
  /** Signs a document with the vendor's key, as the CLI's `issue` does (offline licence files). */
  sign(payload: LicensePayload): { payload: LicensePayload; signature: string };
  close(): Promise<void>;
}

export async function startLicenceService(now: () => Date): Promise<LicenceServiceHarness> {
  const dir = await mkdtemp(path.join(tmpdir(), "cellfleet-licences-"));
  const store = createKeyStore(path.join(dir, "keys.json"));
  const keys = generateSigningKeys();
  const privateKey = loadPrivateKey(keys.privateKeyPem);
  const service = createLicenseServer({ store, privateKey, now, logError: () => undefined });
  await listen(service);
  const serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  const harness: LicenceServiceHarness = {
    url: "",
    publicKey: keys.publicKey,
    mode: "pass",
    addKey: (options) => store.update((file) => addKey(file, options, now()).key),
    ban: async (key, banned) => {
      await store.update((file) => setBanned(file, key, banned));
    },
    sign: (payload) => signLicense(payload, privateKey),
    close: async () => {
      await Promise.all([close(service), close(front)]);
      await rm(dir, { recursive: true, force: true });
    },
  };
  const front = createServer(async (request, response) => {
    if (harness.mode === "down") return request.socket.destroy();
    if (harness.mode === "error500") {
      response.writeHead(500).end("{}");
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const upstream = await fetch(`${serviceUrl}${request.url}`, {
      method: request.method,
      headers: { "content-type": "application/json" },
      body: request.method === "POST" ? Buffer.concat(chunks) : undefined,
    });
    let text = await upstream.text();
    if (harness.mode === "tamper") {
      const body = JSON.parse(text);
      body.payload.deviceCount += 1000;
      text = JSON.stringify(body);
    }
    response.writeHead(upstream.status, { "content-type": "application/json" }).end(text);
  });
  await listen(front);
  harness.url = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  return harness;
}

function listen(server: Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
