import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import type { Kysely } from "kysely";
import type { DB } from "./db/schema";

/** Name of the one master secret row; every key is derived from it by purpose. */
const MASTER_SECRET_NAME = "master";
const MASTER_SECRET_BYTES = 32;
const GCM_IV_BYTES = 12;
const GCM_TAG_BYTES = 16;
/** Marks the sealed format, so a later change of algorithm can still open old values. */
const SEALED_PREFIX = "v1.";

/** What a purpose is for; each purpose gets its own key, so one key never serves two uses. */
export type SecretPurpose =
  | "file-url"
  | "job-payload"
  | "notification-secret"
  | "installation-fingerprint"
  | "zero-touch-secret"
  | "totp-secret";

/** Keys derived from the server's own master secret, the same on every node of one database. */
export interface PlatformSecrets {
  /** A 32-byte key for one purpose (HKDF-SHA256 of the master secret). */
  key(purpose: SecretPurpose): Buffer;
  /** Encrypts and authenticates a text (AES-256-GCM) so it can be stored without being readable. */
  seal(purpose: SecretPurpose, plaintext: string): string;
  /** Opens what `seal` made with the same purpose; throws when it was altered or sealed for another. */
  open(purpose: SecretPurpose, sealed: string): string;
}

/** Thrown by `open` when a sealed value is malformed, altered, or sealed for another purpose. */
export class SealedValueError extends Error {
  override name = "SealedValueError";
}

/** Builds the derived keys and the seal/open pair from a master secret. */
export function createPlatformSecrets(master: Buffer): PlatformSecrets {
  const keys = new Map<SecretPurpose, Buffer>();
  const key = (purpose: SecretPurpose): Buffer => {
    let derived = keys.get(purpose);
    if (!derived) {
      derived = Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), `cellfleet:${purpose}`, 32));
      keys.set(purpose, derived);
    }
    return derived;
  };
  return {
    key,
    seal(purpose, plaintext) {
      const iv = randomBytes(GCM_IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key(purpose), iv);
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(purpose, sealed) {
      if (!sealed.startsWith(SEALED_PREFIX)) throw new SealedValueError("Not a sealed value");
      const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), "base64url");
      if (raw.length < GCM_IV_BYTES + GCM_TAG_BYTES) throw new SealedValueError("Sealed value too short");
      const decipher = createDecipheriv("aes-256-gcm", key(purpose), raw.subarray(0, GCM_IV_BYTES));
      decipher.setAuthTag(raw.subarray(GCM_IV_BYTES, GCM_IV_BYTES + GCM_TAG_BYTES));
      try {
        const body = raw.subarray(GCM_IV_BYTES + GCM_TAG_BYTES);
        return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
      } catch {
        throw new SealedValueError("Sealed value was altered or sealed for another purpose");
      }
    },
  };
}

/**
 * Reads the master secret, creating it on the very first start. Nodes starting together race on the
 * insert; `on conflict do nothing` lets exactly one win, and all of them read the winner's value.
 */
export async function loadPlatformSecrets(db: Kysely<DB>): Promise<PlatformSecrets> {
  await db
    .insertInto("platform_secrets")
    .values({ name: MASTER_SECRET_NAME, value: randomBytes(MASTER_SECRET_BYTES) })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  const row = await db
    .selectFrom("platform_secrets")
    .select("value")
    .where("name", "=", MASTER_SECRET_NAME)
    .executeTakeFirstOrThrow();
  return createPlatformSecrets(Buffer.from(row.value));
}

/** Compares two signatures in constant time (false when their lengths differ). */
export function signaturesMatch(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
