import { KEY_HEX_LENGTH } from "../constants";
import { isProtocolIdent, PROTOCOL_TOPIC_ROOT } from "./topics";

// The contract has neither DOM nor Node typings, so the few WebCrypto and encoding members used here
// are typed locally. Both exist as globals in Node 20 and in every current browser.
interface HmacSubtle {
  importKey(
    format: "raw",
    keyData: Uint8Array,
    algorithm: { name: "HMAC"; hash: "SHA-256" },
    extractable: false,
    usages: ["sign"],
  ): Promise<unknown>;
  sign(algorithm: "HMAC", key: unknown, data: Uint8Array): Promise<ArrayBuffer>;
}
interface WebGlobals {
  crypto: { subtle: HmacSubtle };
  TextEncoder: new () => { encode(input: string): Uint8Array };
}
const web = globalThis as unknown as WebGlobals;

const HEX_KEY_PATTERN = new RegExp(`^[0-9A-Fa-f]{${KEY_HEX_LENGTH}}$`);

/** Whether a value is a 64-hex-character key (either case), as a device's AES key is. */
export function isHexKey(value: string): boolean {
  return HEX_KEY_PATTERN.test(value);
}

/** The bytes a hex string spells; the caller has checked it is hex of even length. */
function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesToHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** HMAC-SHA256 of a UTF-8 message under raw key bytes, as lowercase hex. */
export async function hmacSha256Hex(keyBytes: Uint8Array, message: string): Promise<string> {
  const subtle = web.crypto.subtle;
  const key = await subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const signature = await subtle.sign("HMAC", key, new web.TextEncoder().encode(message));
  return bytesToHex(new Uint8Array(signature));
}

/**
 * The MQTT password of a device: HMAC-SHA256 keyed with the 32 bytes of its 64-hex AES key, over the
 * UTF-8 string `cellfleet/v1/{ident}`, as 64 lowercase hex characters. The key itself never crosses
 * the wire. Rejects when the ident or the key is malformed.
 */
export async function deriveDeviceToken(ident: string, aesKeyHex: string): Promise<string> {
  if (!isProtocolIdent(ident))
    throw new Error("deriveDeviceToken: the ident must be 4-64 Latin letters/digits");
  if (!isHexKey(aesKeyHex)) throw new Error("deriveDeviceToken: the key must be 64 hexadecimal characters");
  return hmacSha256Hex(hexToBytes(aesKeyHex), `${PROTOCOL_TOPIC_ROOT}/${ident}`);
}

/**
 * Whether `password` is the token of the device `ident` with key `aesKeyHex`. Compares in time that
 * does not depend on where the strings differ; a malformed ident or key answers false.
 */
export async function verifyDeviceToken(
  ident: string,
  aesKeyHex: string,
  password: string,
): Promise<boolean> {
  if (!isProtocolIdent(ident) || !isHexKey(aesKeyHex)) return false;
  const expected = await deriveDeviceToken(ident, aesKeyHex);
  const given = password.toLowerCase();
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ given.charCodeAt(i);
  return difference === 0;
}
