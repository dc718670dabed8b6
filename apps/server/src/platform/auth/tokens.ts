import { createHash, randomBytes, randomInt } from "node:crypto";

/** A new session token: 32 random bytes, base64url. Only its hash is ever stored. */
export function generateToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The SHA-256 hex digest under which a token is stored and looked up. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

// No look-alike characters (0/O, 1/l/I), so a password read from a log can be typed.
const PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/** A random password of the given length, from a cryptographic source. */
export function generatePassword(length = 16): string {
  let text = "";
  for (let i = 0; i < length; i++) text += PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)];
  return text;
}
