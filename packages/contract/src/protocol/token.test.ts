import { describe, expect, it } from "vitest";
import { deriveDeviceToken, isHexKey, verifyDeviceToken } from "./index";

// The contract is compiled without Node typings (it must not depend on Node), so Node's crypto is
// loaded through a specifier TypeScript does not resolve and typed here by hand.
type NodeCrypto = {
  createHmac(
    algorithm: string,
    key: Uint8Array,
  ): { update(data: string, encoding: "utf8"): { digest(encoding: "hex"): string } };
};
const NODE_CRYPTO = "node:crypto";
const { createHmac } = (await import(NODE_CRYPTO)) as NodeCrypto;

const keyA = "00112233445566778899AABBCCDDEEFF00112233445566778899AABBCCDDEEFF";
const keyB = "F".repeat(64);

function referenceToken(ident: string, keyHex: string): string {
  const keyBytes = Uint8Array.from(keyHex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
  return createHmac("sha256", keyBytes).update(`cellfleet/v1/${ident}`, "utf8").digest("hex");
}

describe("isHexKey", () => {
  it("accepts 64 hex characters of either case", () => {
    expect(isHexKey(keyA)).toBe(true);
    expect(isHexKey(keyA.toLowerCase())).toBe(true);
  });

  it.each(["", "0".repeat(63), "0".repeat(65), `${"0".repeat(63)}G`, ` ${"0".repeat(63)}`])(
    "refuses %j",
    (key) => {
      expect(isHexKey(key)).toBe(false);
    },
  );
});

describe("deriveDeviceToken", () => {
  it("is HMAC-SHA256 of cellfleet/v1/{ident} under the key bytes, as 64 lowercase hex", async () => {
    const token = await deriveDeviceToken("SIM000001", keyA);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(token).toBe(referenceToken("SIM000001", keyA));
  });

  it("matches a fixed vector (the one docs/device-protocol.md gives, checked with OpenSSL)", async () => {
    expect(await deriveDeviceToken("SIM000001", keyA)).toBe(
      "e20361a88474e3b332ec3bb50ee13a23f3f2e6ff2d2cd81710aa02c081b70fa5",
    );
  });

  it("is deterministic and ignores the key's letter case", async () => {
    const first = await deriveDeviceToken("SIM000001", keyA);
    expect(await deriveDeviceToken("SIM000001", keyA)).toBe(first);
    expect(await deriveDeviceToken("SIM000001", keyA.toLowerCase())).toBe(first);
  });

  it("differs per ident and per key", async () => {
    const tokens = new Set([
      await deriveDeviceToken("SIM000001", keyA),
      await deriveDeviceToken("SIM000002", keyA),
      await deriveDeviceToken("sim000001", keyA),
      await deriveDeviceToken("SIM000001", keyB),
    ]);
    expect(tokens.size).toBe(4);
    expect(await deriveDeviceToken("SIM000002", keyB)).toBe(referenceToken("SIM000002", keyB));
  });

  it("does not contain the key", async () => {
    const token = await deriveDeviceToken("SIM000001", keyA);
    expect(token).not.toContain(keyA.toLowerCase().slice(0, 16));
  });

  it("rejects a malformed key or ident", async () => {
    await expect(deriveDeviceToken("SIM000001", "abc")).rejects.toThrow(/64 hexadecimal/);
    await expect(deriveDeviceToken("SIM-1", keyA)).rejects.toThrow(/ident/);
  });
});

describe("verifyDeviceToken", () => {
  it("accepts the derived token and nothing else", async () => {
    const token = await deriveDeviceToken("SIM000001", keyA);
    expect(await verifyDeviceToken("SIM000001", keyA, token)).toBe(true);
    expect(await verifyDeviceToken("SIM000001", keyA, token.toUpperCase())).toBe(true);
    expect(await verifyDeviceToken("SIM000001", keyB, token)).toBe(false);
    expect(await verifyDeviceToken("SIM000002", keyA, token)).toBe(false);
    expect(await verifyDeviceToken("SIM000001", keyA, token.slice(0, 63))).toBe(false);
    expect(await verifyDeviceToken("SIM000001", keyA, `${token.slice(0, 63)}0`)).toBe(token.endsWith("0"));
    expect(await verifyDeviceToken("SIM000001", keyA, keyA)).toBe(false);
    expect(await verifyDeviceToken("SIM000001", "", token)).toBe(false);
  });
});
