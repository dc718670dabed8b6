import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import type { PasskeyRow } from "./second-factor.repo";

// Passkeys and security keys through WebAuthn (@simplewebauthn/server). The relying party is the
// console's own address (WEBAUTHN_ORIGIN, else PUBLIC_URL), never the request's: a page on another
// origin that relays a sign-in gets an assertion for its own name, which fails here.

const TIMEOUT_MS = 120_000;

/** The relying party, or OPERATION_IS_NOT_SUPPORTED where the console's address is an IP address. */
export function relyingParty(ctx: AppContext): { origin: string; rpId: string } {
  const party = ctx.config.webauthn;
  if (!party) throw new AppError("OPERATION_IS_NOT_SUPPORTED", "Passkeys need the console at a domain name");
  return party;
}

const transportsOf = (row: Pick<PasskeyRow, "transports">) =>
  row.transports as AuthenticatorTransportFuture[];

/** What the browser needs to make a new passkey for the person (their existing ones excluded). */
export function registrationOptions(
  ctx: AppContext,
  user: { id: string; username: string; full_name: string },
  existing: PasskeyRow[],
) {
  const party = relyingParty(ctx);
  return generateRegistrationOptions({
    rpName: "Cellfleet",
    rpID: party.rpId,
    userName: user.username,
    userDisplayName: user.full_name || user.username,
    userID: new TextEncoder().encode(user.id),
    timeout: TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
}

/** Checks a new credential against the challenge; answers what is stored of it, or null when it fails. */
export async function verifyRegistration(
  ctx: AppContext,
  response: Record<string, unknown>,
  expectedChallenge: string,
): Promise<Pick<PasskeyRow, "credential_id" | "public_key" | "counter" | "transports"> | null> {
  const party = relyingParty(ctx);
  try {
    const result = await verifyRegistrationResponse({
      response: response as unknown as RegistrationResponseJSON,
      expectedChallenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpId,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      credential_id: credential.id,
      public_key: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
  } catch {
    return null;
  }
}

/** What the browser needs to sign a sign-in's challenge with one of the person's passkeys. */
export function authenticationOptions(ctx: AppContext, passkeys: PasskeyRow[]) {
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx).rpId,
    timeout: TIMEOUT_MS,
    userVerification: "preferred",
    allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
  });
}

/** Checks a signed challenge; answers the passkey used and its new counter, or null when it fails. */
export async function verifyAuthentication(
  ctx: AppContext,
  response: Record<string, unknown>,
  expectedChallenge: string,
  passkeys: PasskeyRow[],
): Promise<{ passkey: PasskeyRow; counter: number } | null> {
  const party = relyingParty(ctx);
  const passkey = passkeys.find((row) => row.credential_id === response.id);
  if (!passkey) return null;
  try {
    const result = await verifyAuthenticationResponse({
      response: response as unknown as AuthenticationResponseJSON,
      expectedChallenge,
      expectedOrigin: party.origin,
      expectedRPID: party.rpId,
      requireUserVerification: false,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
    });
    return result.verified ? { passkey, counter: result.authenticationInfo.newCounter } : null;
  } catch {
    return null;
  }
}
