import { KEY_HEX_LENGTH } from "../constants";

// The contract has no DOM or Node typings; getRandomValues exists as a global in Node 20 and browsers.
const web = globalThis as unknown as { crypto: { getRandomValues(bytes: Uint8Array): Uint8Array } };

/**
 * A new device AES key: 32 bytes from the platform's cryptographic random source, as 64 uppercase
 * hexadecimal characters (how the console shows keys).
 */
export function generateDeviceKey(): string {
  const bytes = web.crypto.getRandomValues(new Uint8Array(KEY_HEX_LENGTH / 2));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex.toUpperCase();
}
