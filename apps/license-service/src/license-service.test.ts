import { createPublicKey, verify } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type LicenseDocument, LicenseDocumentSchema, licensePayloadText } from "@cellfleet/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addKey, releaseKey, setBanned } from "./admin";
import { createLicenseServer } from "./server";
import { generateSigningKeys, loadPrivateKey } from "./signing";
import { createKeyStore } from "./store";

const FP_A = "a".repeat(64);
const FP_B = "b".repeat(64);
const NOW = new Date("2026-06-01T00:00:00.000Z");

function verifies(document: LicenseDocument, publicKey: string): boolean {
  const key = createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" });
  return verify(
    null,
    Buffer.from(licensePayloadText(document.payload), "utf8"),
    key,
    Buffer.from(document.signature, "base64"),
  );
}

describe("licence service", () => {
  const keys = generateSigningKeys();
  let dir: string;
  let base: string;
  let server: ReturnType<typeof createLicenseServer>;
  const store = () => createKeyStore(path.join(dir, "keys.json"));
  let active: string;
  let banned: string;
  let expired: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "license-service-"));
    const keyStore = store();
    active = await keyStore.update((file) => addKey(file, { deviceCount: 50, days: 365 }, NOW).key);
    banned = await keyStore.update(
      (file) => addKey(file, { deviceCount: 5, days: 365, maxInstallations: 2 }, NOW).key,
    );
    await keyStore.update((file) => setBanned(file, banned, true));
    expired = await keyStore.update(
      (file) => addKey(file, { deviceCount: 5, days: 10, from: new Date("2025-01-01T00:00:00Z") }, NOW).key,
    );
    server = createLicenseServer({
      store: keyStore,
      privateKey: loadPrivateKey(keys.privateKeyPem),
      now: () => NOW,
      logError: () => undefined,
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  const activate = async (body: unknown) => {
    const response = await fetch(`${base}/v1/activate`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as unknown };
  };

  it("signs an active licence with the period and device count, verifiable with the public key", async () => {
    const answer = await activate({ key: active, fingerprint: FP_A });
    expect(answer.status).toBe(200);
    const document = LicenseDocumentSchema.parse(answer.body);
    expect(document.payload).toMatchObject({
      key: active,
      fingerprint: FP_A,
      status: "active",
      deviceCount: 50,
    });
    expect(document.payload.validUntil).toBe(new Date(NOW.getTime() + 365 * 86_400_000).toISOString());
    expect(verifies(document, keys.publicKey)).toBe(true);
    // Any changed field breaks the signature.
    expect(
      verifies({ ...document, payload: { ...document.payload, deviceCount: 5000 } }, keys.publicKey),
    ).toBe(false);
    // Another vendor key does not verify it.
    expect(verifies(document, generateSigningKeys().publicKey)).toBe(false);
  });

  it("binds a key to its installations: a second one is refused (signed), the first still refreshes", async () => {
    const other = await activate({ key: active, fingerprint: FP_B });
    expect(LicenseDocumentSchema.parse(other.body).payload).toMatchObject({
      status: "fingerprint_mismatch",
      deviceCount: 0,
    });
    const again = await activate({ key: active, fingerprint: FP_A });
    expect(LicenseDocumentSchema.parse(again.body).payload.status).toBe("active");
    const file = JSON.parse(await readFile(path.join(dir, "keys.json"), "utf8"));
    expect(file.activations[active]).toEqual([FP_A]);
    await store().update((keyFile) => releaseKey(keyFile, active, FP_A));
    const moved = await activate({ key: active, fingerprint: FP_B });
    expect(LicenseDocumentSchema.parse(moved.body).payload.status).toBe("active");
  });

  it("answers banned, expired and unknown keys with signed statuses and no devices", async () => {
    for (const [key, status] of [
      [banned, "banned"],
      [expired, "expired"],
      ["c".repeat(64), "unknown"],
    ]) {
      const document = LicenseDocumentSchema.parse((await activate({ key, fingerprint: FP_A })).body);
      expect(document.payload).toMatchObject({ status, deviceCount: 0 });
      expect(verifies(document, keys.publicKey)).toBe(true);
    }
  });

  it("refuses malformed requests with 400 and other paths with 404", async () => {
    expect((await activate({ key: "xyz", fingerprint: FP_A })).status).toBe(400);
    expect((await activate({ key: active })).status).toBe(400);
    const notJson = await fetch(`${base}/v1/activate`, { method: "POST", body: "{" });
    expect(notJson.status).toBe(400);
    expect((await fetch(`${base}/v1/nothing`)).status).toBe(404);
    const huge = await fetch(`${base}/v1/activate`, { method: "POST", body: "x".repeat(10_000) });
    expect(huge.status).toBe(413);
  });

  it("publishes its public key and health", async () => {
    expect(await (await fetch(`${base}/v1/public-key`)).json()).toEqual({ publicKey: keys.publicKey });
    expect(await (await fetch(`${base}/v1/health`)).json()).toEqual({ ok: true });
  });
});

describe("admin edits", () => {
  it("refuses a duplicate key, a malformed key and a non-positive device count", () => {
    const file = { keys: [], activations: {} };
    const record = addKey(file, { deviceCount: 3, days: 1, key: "D".repeat(64) }, NOW);
    expect(record.key).toBe("d".repeat(64));
    expect(() => addKey(file, { deviceCount: 3, days: 1, key: "d".repeat(64) }, NOW)).toThrow(/exists/);
    expect(() => addKey(file, { deviceCount: 3, days: 1, key: "12" }, NOW)).toThrow(/64/);
    expect(() => addKey(file, { deviceCount: 0, days: 1 }, NOW)).toThrow(/devices/);
    expect(() => setBanned(file, "e".repeat(64), true)).toThrow(/no key/);
  });

  it("refuses a private key that is not Ed25519", async () => {
    const { generateKeyPairSync } = await import("node:crypto");
    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    expect(() => loadPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" }).toString())).toThrow(
      /Ed25519/,
    );
  });
});
