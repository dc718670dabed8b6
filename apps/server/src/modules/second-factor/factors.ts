import { createHash, randomInt } from "node:crypto";
import { RECOVERY_CODE_COUNT } from "@cellfleet/contract";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";

// The factors themselves, apart from who holds them: TOTP codes (RFC 6238: SHA-1, 6 digits, 30 s,
// as every authenticator app reads an otpauth URL) and recovery codes.

const TOTP_PERIOD_SECONDS = 30;
/** A code of the step before or after the current one is taken too: phones' clocks drift. */
const TOTP_TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

/** A new TOTP secret (base32, 160 bits) and its otpauth URL and QR code for an app to scan. */
export async function newTotpSecret(
  issuer: string,
  account: string,
): Promise<{ secret: string; otpauthUrl: string; qrSvg: string }> {
  const secret = generateSecret();
  const otpauthUrl = generateURI({ issuer, label: account, secret });
  const qrSvg = await QRCode.toString(otpauthUrl, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
  return { secret, otpauthUrl, qrSvg };
}

/**
 * The RFC 6238 time step of a right code, or null: only steps after `afterTimeStep` count, so a
 * code once taken (or an older one) is a replay.
 */
export async function matchTotp(
  secret: string,
  code: string,
  now: Date,
  afterTimeStep: number,
): Promise<number | null> {
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_SECONDS,
    ...(afterTimeStep > 0 ? { afterTimeStep } : {}),
  });
  return result.valid && "timeStep" in result ? result.timeStep : null;
}

// No look-alike characters, in two groups of five: easy to read off paper and type.
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";

/** Ten new recovery codes (`xxxxx-xxxxx`, 49 bits each). */
export function newRecoveryCodes(): string[] {
  const one = () => {
    let text = "";
    for (let i = 0; i < 10; i++) text += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
    return `${text.slice(0, 5)}-${text.slice(5)}`;
  };
  return Array.from({ length: RECOVERY_CODE_COUNT }, one);
}

/** The SHA-256 a recovery code is kept and looked up by; case, spaces and dashes do not matter. */
export function hashRecoveryCode(code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]/g, "");
  return createHash("sha256").update(`recovery:${normal}`).digest("hex");
}
