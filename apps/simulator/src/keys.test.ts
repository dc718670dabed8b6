import { createHmac } from "node:crypto";
import { isHexKey } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { fleetIdent } from "./fleet";
import {
  bulkAddLines,
  DEFAULT_FLEET_SECRET,
  deriveFleetKey,
  parseKeysFile,
  randomDeviceKey,
  zeroTouchEntry,
} from "./keys";

const keyA = "A".repeat(64);
const keyB = "0123456789abcdef".repeat(4);

describe("deriveFleetKey", () => {
  it("gives a 64-hex uppercase key, the same every time", async () => {
    const key = await deriveFleetKey(DEFAULT_FLEET_SECRET, "SIM000001");
    expect(key).toMatch(/^[0-9A-F]{64}$/);
    expect(isHexKey(key)).toBe(true);
    expect(await deriveFleetKey(DEFAULT_FLEET_SECRET, "SIM000001")).toBe(key);
  });

  it("differs per ident and per secret", async () => {
    const keys = new Set([
      await deriveFleetKey("s1", "SIM000001"),
      await deriveFleetKey("s1", "SIM000002"),
      await deriveFleetKey("s2", "SIM000001"),
    ]);
    expect(keys.size).toBe(3);
  });

  it("refuses an empty secret", async () => {
    await expect(deriveFleetKey("", "SIM000001")).rejects.toThrow(/empty/);
  });
});

describe("fleetIdent", () => {
  it("pads the number to six digits", () => {
    expect(fleetIdent("SIM", 1)).toBe("SIM000001");
    expect(fleetIdent("DEMO", 123456)).toBe("DEMO123456");
  });
});

describe("parseKeysFile", () => {
  it("reads comma, semicolon, tab and space separated lines, skipping comments and a header", () => {
    const text = `ident,key\n# a comment\nRUT0001,${keyA}\n\nRUT0002;${keyB}\r\nRUT0003\t${keyA}\n  RUT0004   ${keyB}  \n`;
    expect(parseKeysFile(text)).toEqual([
      { ident: "RUT0001", key: keyA },
      { ident: "RUT0002", key: keyB.toUpperCase() },
      { ident: "RUT0003", key: keyA },
      { ident: "RUT0004", key: keyB.toUpperCase() },
    ]);
  });

  it.each([
    [`RUT0001`, /line 1: expected IDENT,KEY/],
    [`RUT0001,${keyA},extra`, /line 1: expected/],
    [`RUT-01,${keyA}`, /line 1: ident/],
    [`RUT0001,${keyA.slice(1)}`, /line 1: key/],
    [`RUT0001,${keyA}\nRUT0001,${keyB}`, /line 2: ident RUT0001 appears twice/],
  ])("refuses %j", (text, message) => {
    expect(() => parseKeysFile(text)).toThrow(message);
  });
});

describe("keys for the console's add-many form and zero-touch (issue 27)", () => {
  it("prints add-many lines with random keys that the keys file reads back", () => {
    const entries = [
      { ident: "ACME000001", key: randomDeviceKey() },
      { ident: "ACME000002", key: randomDeviceKey() },
    ];
    expect(entries[0]?.key).not.toBe(entries[1]?.key);
    for (const entry of entries) expect(isHexKey(entry.key)).toBe(true);
    const lines = bulkAddLines(entries);
    expect(lines.split("\n")[0]).toBe(`ACME000001,,,${entries[0]?.key}`);
    expect(parseKeysFile(lines)).toEqual(entries);
  });

  it("signs a zero-touch router's claim and derives its key as docs/device-protocol.md says", async () => {
    const secret = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    const entry = await zeroTouchEntry({ keyId: "3f9a1c0b7e22", secret, model: "LtAP LTE6" }, "SIM000007");
    expect(entry.ident).toBe("LtAPLTE6SIM000007");
    expect(entry.claim).toEqual({ model: "LtAP LTE6", serial: "SIM000007" });
    expect(entry.credentials.username).toBe("zt1:3f9a1c0b7e22:LtAP LTE6:SIM000007:");
    const hmac = (message: string) =>
      createHmac("sha256", Buffer.from(secret, "hex")).update(message, "utf8").digest("hex");
    expect(entry.credentials.password).toBe(
      hmac(`cellfleet/zt1/${entry.ident}/zt1:3f9a1c0b7e22:LtAP LTE6:SIM000007:`),
    );
    expect(entry.key).toBe(hmac(`cellfleet/zt1/key/${entry.ident}`).toUpperCase());
  });
});
