import {
  isSecondFactorRequired,
  type LoginRequest,
  type Role,
  type SecondFactorChallenge,
  type SecurityPolicy,
  type SessionUser,
} from "@cellfleet/contract";
import { verifyPassword } from "../../platform/auth/passwords";
import type { SessionContext } from "../../platform/auth/session-guard";
import { generateToken, hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import { domainsRepo } from "../../platform/db/domains.repo";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { findEffectivePolicy } from "../policies/policies.service";
import { openSignInChallenge } from "../second-factor/second-factor-sign-in";
import { toSessionUser } from "../users/users.mapper";
import { usersRepo } from "../users/users.repo";
import { assertAccountMaySignIn, signedInColumns } from "./account-rules";
import { endSession } from "./session.service";
import { sessionsRepo } from "./sessions.repo";
import {
  assertPoolNotOnHold,
  blockedByAttempts,
  type DeviceCookie,
  type FailurePool,
  findFailurePool,
  isPoolBlocked,
  recordPoolFailure,
  refuseUnknownUsername,
  rememberSignedInBrowser,
  wrongLogin,
} from "./sign-in-throttle";

const HOUR_MS = 60 * 60 * 1000;

/** A sign-in request with the browser's cookies (its device cookies, ADR 016). */
export interface SignInInput {
  request: LoginRequest;
  clientIp: string;
  cookies: Readonly<Record<string, string>>;
}

/**
 * Finds the user the credentials belong to; unknown users and wrong passwords answer alike, and so
 * do their lockouts. A running temporary block of the attempt's pool (this browser's device cookie,
 * or the account's count for browsers without one) answers USER_TEMPORARILY_BLOCKED without the
 * password being tried; wrong passwords count in that pool by the policy.
 */
async function authenticate(
  ctx: AppContext,
  input: SignInInput,
): Promise<{ user: UserRecord; pool: FailurePool | null; policy: SecurityPolicy | null }> {
  const { request } = input;
  const users = usersRepo(ctx.db);
  if ("demo" in request) {
    const demo = await users.findDemoUserAcrossDomains();
    if (!demo) throw new AppError("WRONG_LOGIN_OR_PASSWORD", "Demo access is not available");
    return { user: demo, pool: null, policy: null };
  }
  const found = await users.findUserWithPasswordHashByUsernameAcrossDomains(request.username);
  if (!found) return refuseUnknownUsername(ctx, request.username, request.password);
  const { password_hash: passwordHash, ...user } = found;
  const policy = await findEffectivePolicy(ctx.db, user);
  const pool = await findFailurePool(ctx, user, input.cookies);
  if (user.removed_at === null) assertPoolNotOnHold(pool, user, ctx.now());
  if (!(await verifyPassword(passwordHash, request.password))) {
    if (user.removed_at !== null || user.blocked || isPoolBlocked(pool, user)) throw wrongLogin();
    throw await recordPoolFailure(ctx, user, pool, policy);
  }
  // Account state is told only to someone who knows the password.
  if (isPoolBlocked(pool, user) && user.removed_at === null && !user.blocked) throw blockedByAttempts();
  await assertAccountMaySignIn(ctx, user, policy);
  return { user, pool, policy };
}

/** What a sign-in answers: the session user, and a device cookie for a browser that had none. */
export interface SignInResult {
  user: SessionUser;
  deviceCookie: DeviceCookie | null;
}

/** What the password step answers: a session, or the second step to take (ADR 039). */
export type PasswordStepResult = SignInResult | SecondFactorChallenge;

/**
 * Whether the second step is asked: the person has a factor and this browser was not remembered
 * (its device cookie's `second_factor_until`, set when its owner asked, ADR 039).
 */
function asksSecondFactor(user: UserRecord, pool: FailurePool | null, now: Date): boolean {
  if (!user.has_second_factor || user.is_demo) return false;
  const until = pool?.kind === "device" ? pool.device.second_factor_until : null;
  return !(until && until.getTime() > now.getTime());
}

/**
 * Signs a user in: checks credentials and account state, then opens a session, or, for a person
 * with a second factor in a browser not remembered, the second step.
 */
export async function login(ctx: AppContext, input: SignInInput): Promise<PasswordStepResult> {
  const { user, pool, policy } = await authenticate(ctx, input);
  if (user.blocked) throw new AppError("USER_BLOCKED", "The user is blocked");
  if (policy && asksSecondFactor(user, pool, ctx.now())) {
    const deviceTokenHash = pool?.kind === "device" ? pool.device.token_hash : null;
    return openSignInChallenge(ctx, user, deviceTokenHash, policy.second_factor_remember_days);
  }
  return openSession(ctx, user, pool, policy, input.clientIp);
}

/** Opens a session for a signed-in user; the pool's count starts over, a new browser gets its cookie. */
export async function openSession(
  ctx: AppContext,
  user: UserRecord,
  pool: FailurePool | null,
  policy: SecurityPolicy | null,
  clientIp: string,
): Promise<SignInResult> {
  const now = ctx.now();

  const token = generateToken();
  let deviceCookie: DeviceCookie | null = null;
  await ctx.db.transaction().execute(async (trx) => {
    await sessionsRepo(trx).insertSessionAcrossDomains({
      user_id: user.id,
      token_hash: hashToken(token),
      create_time: now,
      expires_at: new Date(now.getTime() + ctx.config.sessionTtlHours * HOUR_MS),
      last_seen_at: now,
      client_ip: clientIp,
    });
    // A browser with its own count leaves the account's count (strangers' guesses) as it is.
    const columns = pool?.kind === "device" ? { last_login: now } : signedInColumns(now);
    await usersRepo(trx).updateUser(user.domain_id, user.id, columns);
    if (user.domain_id !== null) await domainsRepo(trx).recordDomainSession(user.domain_id, now);
    if (pool && !user.is_demo) deviceCookie = await rememberSignedInBrowser({ ...ctx, db: trx }, user, pool);
  });
  const isPending =
    policy !== null &&
    !user.has_second_factor &&
    isSecondFactorRequired(policy.second_factor_required_for, user.role as Role);
  const signedIn = toSessionUser({ ...user, last_login: now, failed_attempts: 0 }, token, isPending);
  return { user: signedIn, deviceCookie };
}

/** Ends the caller's session; its open sockets are told and closed. */
export async function logout(ctx: AppContext, session: SessionContext): Promise<void> {
  // After logout the token answers TOKEN_INVALID, so the socket is closed with that same code.
  await endSession(ctx, session.sessionId, "logout", "TOKEN_INVALID");
}

/** The session user of the caller's current session. */
export function currentSessionUser(session: SessionContext): SessionUser {
  return toSessionUser(session.user, session.token, session.isSecondFactorPending);
}
