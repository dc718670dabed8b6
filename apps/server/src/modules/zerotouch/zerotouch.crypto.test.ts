import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hexEquals, zeroTouchDeviceKey, zeroTouchPassword } from "./zerotouch.crypto";

// The test vector of docs/device-protocol.md ("Zero-touch join") is what the server computes.
const document = readFileSync(new URL("../../../../../docs/device-protocol.md", import.meta.url), "utf8");

describe("zero-touch derivations", () => {
  it("match the document's test vector", () => {
    const vector = document.match(
      /secret\s+(\S+)\nident\s+(\S+)\nusername\s+(\S+)\npassword\s+(\S+)\nkey\s+(\S+)/,
    );
    expect(vector).not.toBeNull();
    const [, secret = "", ident = "", username = "", password = "", key = ""] = vector as RegExpMatchArray;
    expect(zeroTouchPassword(secret, ident, username)).toBe(password);
    expect(zeroTouchDeviceKey(secret, ident)).toBe(key.toUpperCase());
  });

  it("compares hex in either case and refuses anything else", () => {
    expect(hexEquals("abcd", "ABCD")).toBe(true);
    expect(hexEquals("abcd", "abce")).toBe(false);
    expect(hexEquals("abcd", "abc")).toBe(false);
    expect(hexEquals("abcd", undefined)).toBe(false);
    expect(hexEquals("abcd", "zzzz")).toBe(false);
  });
});
