import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { zeroTouchKeyMessage, zeroTouchPasswordMessage } from "@cellfleet/contract";

// The derivations of docs/device-protocol.md, "Zero-touch join", with node:crypto. The secret is 64 hex characters
// (32 random bytes); every HMAC is keyed with those 32 bytes, never with the hex text.

/** A new configuration's public key id (12 hex) and secret (64 hex). */
export function newZeroTouchSecret(): { keyId: string; secret: string } {
  return { keyId: randomBytes(6).toString("hex"), secret: randomBytes(32).toString("hex") };
}

function hmacHex(secretHex: string, message: string): string {
  return createHmac("sha256", Buffer.from(secretHex, "hex")).update(message, "utf8").digest("hex");
}

/** The MQTT password of a router joining through a configuration: HMAC(secret, `cellfleet/zt1/{ident}/{username}`). */
export function zeroTouchPassword(secretHex: string, ident: string, username: string): string {
  return hmacHex(secretHex, zeroTouchPasswordMessage(ident, username));
}

/** The router's own 64-hex key once it joined (stored upper case, as the console stores keys). */
export function zeroTouchDeviceKey(secretHex: string, ident: string): string {
  return hmacHex(secretHex, zeroTouchKeyMessage(ident)).toUpperCase();
}

/** Whether two hex strings are equal (either case), in time that does not depend on where they differ. */
export function hexEquals(expected: string, given: string | undefined): boolean {
  if (given === undefined || !/^[0-9a-fA-F]*$/.test(given)) return false;
  const a = Buffer.from(expected.toLowerCase(), "utf8");
  const b = Buffer.from(given.toLowerCase(), "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
