import type { SecondFactorSignIn } from "@cellfleet/contract";
import { hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { findEffectivePolicy } from "../policies/policies.service";
import type { ChallengeRow } from "../second-factor/second-factor.repo";
import {
  challengeExpired,
  checkSignInFactor,
  closeChallenge,
  countChallengeFailure,
  findOpenChallenge,
  rememberBrowser,
  signInPasskeyOptions,
  wrongSecondFactor,
} from "../second-factor/second-factor-sign-in";
import { usersRepo } from "../users/users.repo";
import { openSession, type SignInResult } from "./auth.service";
import { signInRepo } from "./sign-in.repo";
import { assertPoolNotOnHold, type FailurePool, recordPoolFailure } from "./sign-in-throttle";

// The second step of signing in (ADR 039) under the same abuse rules as the password (ADR 016):
// a wrong code counts in the pool the password step would have counted in (the browser's device
// cookie, or the account's count for browsers without one), so its temporary and permanent
// blocks hold the second step too; a running block answers before the code is tried.

/** The challenge's user, if it may still sign in (removed or blocked since: the step is over). */
async function challengeUser(ctx: AppContext, challenge: ChallengeRow): Promise<UserRecord> {
  const user = await usersRepo(ctx.db).findUserByIdAcrossDomains(challenge.user_id);
  if (!user || user.removed_at !== null) throw challengeExpired();
  if (user.blocked) throw new AppError("USER_BLOCKED", "The user is blocked");
  return user;
}

/** The pool the password step counted in: the browser's device cookie it came with, or the account. */
async function poolOf(ctx: AppContext, user: UserRecord, challenge: ChallengeRow): Promise<FailurePool> {
  if (!challenge.device_token_hash) return { kind: "account" };
  const device = await signInRepo(ctx.db).findDeviceAcrossDomains(challenge.device_token_hash);
  return device && device.user_id === user.id ? { kind: "device", device } : { kind: "account" };
}

/** POST /api/login/second-factor/options: the passkey request of an open second step. */
export async function secondFactorOptions(ctx: AppContext, challengeToken: string) {
  const challenge = await findOpenChallenge(ctx, challengeToken);
  const user = await challengeUser(ctx, challenge);
  return signInPasskeyOptions(ctx, challenge, user);
}

/** POST /api/login/second-factor: a right factor opens the session (and may remember the browser). */
export async function completeSecondFactor(
  ctx: AppContext,
  input: { step: SecondFactorSignIn; clientIp: string; onPerson: (user: UserRecord) => void },
): Promise<SignInResult> {
  const { step } = input;
  const challenge = await findOpenChallenge(ctx, step.challenge_token);
  const user = await challengeUser(ctx, challenge);
  input.onPerson(user);
  const policy = await findEffectivePolicy(ctx.db, user);
  const pool = await poolOf(ctx, user, challenge);
  assertPoolNotOnHold(pool, user, ctx.now());

  if (!(await checkSignInFactor(ctx, user, challenge, step))) {
    await countChallengeFailure(ctx, challenge);
    const error = await recordPoolFailure(ctx, user, pool, policy);
    // The pool's blocks answer as for a password; a plain miss says what was wrong.
    throw error.code === "WRONG_LOGIN_OR_PASSWORD" ? wrongSecondFactor() : error;
  }
  if (!(await closeChallenge(ctx, challenge))) throw challengeExpired();

  const result = await openSession(ctx, user, pool, policy, input.clientIp);
  const days = policy.second_factor_remember_days;
  if (step.remember_browser && days > 0) {
    const cookieHash =
      pool.kind === "device"
        ? pool.device.token_hash
        : result.deviceCookie
          ? hashToken(result.deviceCookie.value)
          : null;
    if (cookieHash) await rememberBrowser(ctx, cookieHash, days);
  }
  return result;
}
