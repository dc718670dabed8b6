import {
  SECOND_FACTOR_CHALLENGE_MINUTES,
  type SecondFactorChallenge,
  type SecondFactorMethod,
  type SecondFactorSignIn,
} from "@cellfleet/contract";
import { generateToken, hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { hashRecoveryCode, matchTotp } from "./factors";
import { type ChallengeRow, secondFactorRepo } from "./second-factor.repo";
import { authenticationOptions, verifyAuthentication } from "./webauthn";

// The second step of a sign-in (ADR 039): the password step opens a challenge, named by a token
// only its browser holds; this step answers whether a factor matches. The sign-in's abuse rules
// (whose count a wrong code lands in, lockouts) are the auth module's, which calls these.

/** Wrong codes one challenge takes before the password must be entered again. */
export const CHALLENGE_MAX_FAILURES = 5;

/** The answer to a second step that is over: unknown, expired, used, or out of tries. */
export function challengeExpired(): AppError {
  return new AppError("SECOND_FACTOR_EXPIRED", "The sign-in took too long: enter the password again");
}

/** The answer to a wrong code, recovery code or passkey. */
export function wrongSecondFactor(): AppError {
  return new AppError("SECOND_FACTOR_INVALID", "Wrong code or key");
}

/** The ways this person can pass the second step now. */
async function methodsOf(ctx: AppContext, user: UserRecord): Promise<SecondFactorMethod[]> {
  const repo = secondFactorRepo(ctx.db);
  const [totp, passkeys, codesLeft] = await Promise.all([
    repo.findTotp(user.domain_id, user.id),
    repo.listPasskeys(user.domain_id, user.id),
    repo.countRecoveryCodesLeft(user.domain_id, user.id),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (totp?.confirmed_at) methods.push("totp");
  if (passkeys.length > 0 && ctx.config.webauthn) methods.push("webauthn");
  if (codesLeft > 0) methods.push("recovery");
  return methods;
}

/**
 * Opens the second step after a right password: answers what the browser gets (the challenge
 * token, the methods, the days a browser may be remembered). `deviceTokenHash` is the browser's
 * device cookie, where its wrong codes count too.
 */
export async function openSignInChallenge(
  ctx: AppContext,
  user: UserRecord,
  deviceTokenHash: string | null,
  rememberDays: number,
): Promise<SecondFactorChallenge> {
  const token = generateToken();
  const now = ctx.now();
  await secondFactorRepo(ctx.db).insertChallengeAcrossDomains(
    {
      key_hash: hashToken(token),
      user_id: user.id,
      purpose: "sign_in",
      webauthn_challenge: null,
      device_token_hash: deviceTokenHash,
      expires_at: new Date(now.getTime() + SECOND_FACTOR_CHALLENGE_MINUTES * 60_000),
    },
    now,
  );
  return {
    second_factor: {
      challenge_token: token,
      methods: await methodsOf(ctx, user),
      remember_days: rememberDays,
    },
  };
}

/** The open sign-in challenge of a token, or SECOND_FACTOR_EXPIRED. */
export async function findOpenChallenge(ctx: AppContext, challengeToken: string): Promise<ChallengeRow> {
  const row = await secondFactorRepo(ctx.db).findChallengeAcrossDomains(hashToken(challengeToken));
  if (row?.purpose !== "sign_in" || row.expires_at.getTime() <= ctx.now().getTime()) throw challengeExpired();
  return row;
}

/** POST /api/login/second-factor/options: the WebAuthn request of this sign-in (its challenge kept). */
export async function signInPasskeyOptions(
  ctx: AppContext,
  challenge: ChallengeRow,
  user: UserRecord,
): Promise<Record<string, unknown>> {
  const repo = secondFactorRepo(ctx.db);
  const passkeys = await repo.listPasskeys(user.domain_id, user.id);
  const options = await authenticationOptions(ctx, passkeys);
  await repo.updateChallengeAcrossDomains(challenge.key_hash, { webauthn_challenge: options.challenge });
  return { ...options };
}

/** Whether the step's code, recovery code or passkey answer is right (and takes it: each works once). */
export async function checkSignInFactor(
  ctx: AppContext,
  user: UserRecord,
  challenge: ChallengeRow,
  step: SecondFactorSignIn,
): Promise<boolean> {
  const repo = secondFactorRepo(ctx.db);
  const now = ctx.now();
  if ("totp" in step) {
    const totp = await repo.findTotp(user.domain_id, user.id);
    if (!totp?.confirmed_at) return false;
    const secret = ctx.secrets.open("totp-secret", totp.secret_sealed);
    const timeStep = await matchTotp(secret, step.totp, now, totp.last_time_step);
    return timeStep !== null && (await repo.takeTotpStep(user.domain_id, user.id, timeStep, now));
  }
  if ("recovery_code" in step) {
    return repo.useRecoveryCode(user.domain_id, user.id, hashRecoveryCode(step.recovery_code), now);
  }
  const expected = challenge.webauthn_challenge;
  if (!expected || !ctx.config.webauthn) return false;
  // One answer per WebAuthn challenge: the next try asks the options again.
  await repo.updateChallengeAcrossDomains(challenge.key_hash, { webauthn_challenge: null });
  const passkeys = await repo.listPasskeys(user.domain_id, user.id);
  const used = await verifyAuthentication(ctx, step.credential, expected, passkeys);
  if (!used) return false;
  await repo.touchPasskey(user.domain_id, user.id, used.passkey.id, used.counter, now);
  return true;
}

/** Counts a wrong answer on the challenge; at CHALLENGE_MAX_FAILURES the challenge ends. */
export async function countChallengeFailure(ctx: AppContext, challenge: ChallengeRow): Promise<void> {
  const repo = secondFactorRepo(ctx.db);
  const failures = challenge.failed_attempts + 1;
  if (failures >= CHALLENGE_MAX_FAILURES) await repo.deleteChallengeAcrossDomains(challenge.key_hash);
  else await repo.updateChallengeAcrossDomains(challenge.key_hash, { failed_attempts: failures });
}

/** Ends a challenge that signed in; false when another call ended it first (so it signs in once). */
export function closeChallenge(ctx: AppContext, challenge: ChallengeRow): Promise<boolean> {
  return secondFactorRepo(ctx.db).deleteChallengeAcrossDomains(challenge.key_hash);
}

/** Lets the browser of this device cookie skip the second step for `days`. */
export async function rememberBrowser(ctx: AppContext, deviceTokenHash: string, days: number): Promise<void> {
  const until = new Date(ctx.now().getTime() + days * 24 * 60 * 60_000);
  await secondFactorRepo(ctx.db).rememberBrowserAcrossDomains(deviceTokenHash, until);
}
