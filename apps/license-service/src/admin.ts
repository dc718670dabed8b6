import { randomBytes } from "node:crypto";
import type { KeyFile, KeyRecord } from "./store";

// The vendor's edits of the key file, as pure functions the CLI runs through the store.

const DAY_MS = 24 * 3600_000;

export interface NewKeyOptions {
  deviceCount: number;
  days: number;
  from?: Date;
  maxInstallations?: number;
  note?: string;
  /** A key of the vendor's own choosing; default 32 random bytes in hex. */
  key?: string;
}

/** Adds a key (refusing a duplicate) and answers its record. */
export function addKey(file: KeyFile, options: NewKeyOptions, now: Date): KeyRecord {
  const key = (options.key ?? randomBytes(32).toString("hex")).toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(key)) throw new Error("a key is 64 hexadecimal characters");
  if (file.keys.some((entry) => entry.key === key)) throw new Error("that key exists already");
  if (!Number.isInteger(options.deviceCount) || options.deviceCount < 1)
    throw new Error("--devices must be a positive whole number");
  if (!(options.days > 0)) throw new Error("--days must be positive");
  const from = options.from ?? now;
  const record: KeyRecord = {
    key,
    deviceCount: options.deviceCount,
    validFrom: from.toISOString(),
    validUntil: new Date(from.getTime() + options.days * DAY_MS).toISOString(),
    banned: false,
    maxInstallations: options.maxInstallations ?? 1,
    note: options.note ?? "",
  };
  file.keys.push(record);
  return record;
}

/** Bans or lifts a ban: the next activation or refresh of the key answers 'banned'. */
export function setBanned(file: KeyFile, key: string, banned: boolean): KeyRecord {
  const record = findKey(file, key);
  record.banned = banned;
  return record;
}

/** Releases a key from one installation (or all), so it can be activated elsewhere. */
export function releaseKey(file: KeyFile, key: string, fingerprint?: string): number {
  const record = findKey(file, key);
  const bound = file.activations[record.key] ?? [];
  const kept = fingerprint ? bound.filter((entry) => entry !== fingerprint) : [];
  file.activations[record.key] = kept;
  return bound.length - kept.length;
}

function findKey(file: KeyFile, key: string): KeyRecord {
  const record = file.keys.find((entry) => entry.key === key.toLowerCase());
  if (!record) throw new Error(`no key ${key}`);
  return record;
}
