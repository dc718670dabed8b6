import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";

// @node-rs/argon2 hashes with argon2id by default (m=19456 KiB, t=2, p=1, OWASP's baseline).

/** The argon2id hash of a password, as a PHC string. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** Whether the password matches the stored hash; a malformed hash counts as no match. */
export async function verifyPassword(storedHash: string, password: string): Promise<boolean> {
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(32).toString("base64url"));
  return dummyHash;
}

/** Computes the dummy hash ahead of the first sign-in, so even that one takes the usual time. */
export async function prepareDummyPasswordHash(): Promise<void> {
  await dummyPasswordHash();
}

/**
 * Spends the same time as a real verification against a hash nobody knows the password of,
 * so an unknown username answers as slowly as a wrong password.
 */
export async function verifyDummyPassword(password: string): Promise<void> {
  await verifyPassword(await dummyPasswordHash(), password);
}

/** A hash no password can match in practice, for accounts that must not sign in with one. */
export function hashUnusablePassword(): Promise<string> {
  return hashPassword(randomBytes(48).toString("base64url"));
}
