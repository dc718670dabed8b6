import { randomBytes } from "node:crypto";
import {
  hmacSha256Hex,
  isHexKey,
  isProtocolIdent,
  zeroTouchKeyMessage,
  zeroTouchPasswordMessage,
} from "@cellfleet/contract";
import type { RouterClaim } from "./device";

/** Fleet secret used when none is given, so `npm run simulate` and a seeded demo agree out of the box. */
export const DEFAULT_FLEET_SECRET = "cellfleet-simulator";

/**
 * The AES key of a simulated device: HMAC-SHA256 keyed with the UTF-8 fleet secret over
 * `cellfleet-sim-key/{ident}`, as 64 uppercase hex characters (the console's key format). A server
 * seeded with the same secret knows every simulated device's key without a keys file.
 */
export async function deriveFleetKey(fleetSecret: string, ident: string): Promise<string> {
  if (fleetSecret.length === 0) throw new Error("deriveFleetKey: the fleet secret is empty");
  const secretBytes = new TextEncoder().encode(fleetSecret);
  return (await hmacSha256Hex(secretBytes, `cellfleet-sim-key/${ident}`)).toUpperCase();
}

/** One line of a keys file. */
export interface DeviceKeyEntry {
  ident: string;
  key: string;
}

/**
 * Reads a keys file: one device a line, `IDENT,KEY` (comma, semicolon, tab or spaces between);
 * blank lines and lines starting with `#` are skipped; a header line `ident,key` is allowed.
 * Throws with the line number on the first bad line or a repeated ident.
 */
export function parseKeysFile(text: string): DeviceKeyEntry[] {
  const entries: DeviceKeyEntry[] = [];
  const seen = new Set<string>();
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const fields = line.split(/[,;\t ]+/).filter((field) => field !== "");
    if (index === 0 && fields[0]?.toLowerCase() === "ident") continue;
    const [ident, key] = fields;
    const where = `keys file line ${index + 1}`;
    if (fields.length !== 2) throw new Error(`${where}: expected IDENT,KEY`);
    if (!isProtocolIdent(ident)) throw new Error(`${where}: ident must be 4-64 Latin letters or digits`);
    if (!isHexKey(key)) throw new Error(`${where}: key must be 64 hexadecimal characters`);
    if (seen.has(ident)) throw new Error(`${where}: ident ${ident} appears twice`);
    seen.add(ident);
    entries.push({ ident, key: key.toUpperCase() });
  }
  return entries;
}

/** A new random AES key, 64 uppercase hex characters, as the console's "Generate a key" makes one. */
export function randomDeviceKey(): string {
  return randomBytes(32).toString("hex").toUpperCase();
}

/**
 * Lines to paste into the console's "add many" form (`ident,description,tags,key`), one router a
 * line with no description or tags; `--keys-file` reads them back (issue 27: routers into your own
 * domain without reading --help).
 */
export function bulkAddLines(entries: readonly DeviceKeyEntry[]): string {
  return entries.map((entry) => `${entry.ident},,,${entry.key}`).join("\n");
}

/** What the console showed for a zero-touch configuration, and the model the routers claim. */
export interface ZeroTouchJoin {
  keyId: string;
  /** 64 hex characters. */
  secret: string;
  model: string;
}

/**
 * A zero-touch router's connection (docs/device-protocol.md 2): its ident from the model and serial,
 * the `zt1:` user name, the password signed with the configuration's secret, and the key the
 * console stores for it once it joined.
 */
export async function zeroTouchEntry(
  join: ZeroTouchJoin,
  serial: string,
): Promise<DeviceKeyEntry & { credentials: { username: string; password: string }; claim: RouterClaim }> {
  const ident = `${join.model}${serial}`.replace(/[^A-Za-z0-9]/g, "").slice(0, 64);
  const username = `zt1:${join.keyId}:${join.model}:${serial}:`;
  const secret = Buffer.from(join.secret, "hex");
  const password = await hmacSha256Hex(secret, zeroTouchPasswordMessage(ident, username));
  const key = (await hmacSha256Hex(secret, zeroTouchKeyMessage(ident))).toUpperCase();
  return { ident, key, credentials: { username, password }, claim: { model: join.model, serial } };
}
