import { createHash } from "node:crypto";
import { DEFAULT_POLICY, type SecurityPolicy } from "@cellfleet/contract";
import { verifyDummyPassword } from "../../platform/auth/passwords";
import { generateToken, hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { usersRepo } from "../users/users.repo";
import { type SignInDeviceRow, signInRepo } from "./sign-in.repo";

// Sign-in abuse (ADR 016, OWASP's device cookies): failures count per account only for browsers
// that never signed in as it; a browser that did carries a device cookie whose failures count on
// their own, so a stranger's guesses never lock the owner's browser out. The policy's counts
// (spec section 3) apply to each count alike. Usernames nobody has count too, by the default
// policy, so a lockout answers the same whether the name exists or not.

const MINUTE_MS = 60_000;
/** How long a device cookie is good for. */
export const DEVICE_COOKIE_DAYS = 365;

/** The cookie a browser keeps after signing in as a user: its name and value. */
export interface DeviceCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/** The device cookie's name for a user: one per user, so a shared browser keeps each person's. */
export function deviceCookieName(userId: string): string {
  return `cf_dev_${createHash("sha256").update(userId).digest("hex").slice(0, 16)}`;
}

/** Where a sign-in attempt's failures count: the browser's own cookie, or the account's untrusted count. */
export type FailurePool = { kind: "device"; device: SignInDeviceRow } | { kind: "account" };

function temporarilyBlocked(until: Date): AppError {
  return new AppError("USER_TEMPORARILY_BLOCKED", `The user is blocked until ${until.toISOString()}`);
}

/** The answer to a wrong username or password, alike for both so neither tells which was wrong. */
export function wrongLogin(): AppError {
  return new AppError("WRONG_LOGIN_OR_PASSWORD", "Wrong username or password");
}

/** The answer once an attempt's pool is blocked for good by its failures. */
export function blockedByAttempts(): AppError {
  return new AppError("USER_BLOCKED", "The user is blocked after too many failed sign-in attempts");
}

/** The pool of an attempt: the browser's device cookie when it holds a live one for this user. */
export async function findFailurePool(
  ctx: AppContext,
  user: UserRecord,
  cookies: Readonly<Record<string, string>>,
): Promise<FailurePool> {
  const value = cookies[deviceCookieName(user.id)];
  if (!value) return { kind: "account" };
  const device = await signInRepo(ctx.db).findDeviceAcrossDomains(hashToken(value));
  if (!device || device.user_id !== user.id || device.expires_at.getTime() <= ctx.now().getTime()) {
    return { kind: "account" };
  }
  return { kind: "device", device };
}

/** Throws USER_TEMPORARILY_BLOCKED while the pool's temporary block runs (before the password is tried). */
export function assertPoolNotOnHold(pool: FailurePool, user: UserRecord, now: Date): void {
  const until = pool.kind === "device" ? pool.device.blocked_until : user.blocked_until;
  if (until && until.getTime() > now.getTime()) throw temporarilyBlocked(until);
}

/** Whether the pool is blocked for good (told only to someone who knows the password). */
export function isPoolBlocked(pool: FailurePool, user: UserRecord): boolean {
  return pool.kind === "device" ? pool.device.blocked : user.untrusted_blocked;
}

/** The policy's decision on the n-th failure in a row: a block for good, a temporary one, or none. */
function decideOnFailure(
  policy: Pick<
    SecurityPolicy,
    "attempts_before_permanent_block" | "attempts_before_temporary_block" | "temporary_block_minutes"
  >,
  attempts: number,
  now: Date,
): "blocked" | Date | null {
  if (policy.attempts_before_permanent_block > 0 && attempts >= policy.attempts_before_permanent_block) {
    return "blocked";
  }
  const every = policy.attempts_before_temporary_block;
  if (every > 0 && policy.temporary_block_minutes > 0 && attempts % every === 0) {
    return new Date(now.getTime() + policy.temporary_block_minutes * MINUTE_MS);
  }
  return null;
}

/**
 * Counts a wrong password in its pool and answers the error to throw: USER_BLOCKED at the policy's
 * permanent count (only this browser, or only browsers without a cookie: never the owner's
 * other browsers, and no session ends), USER_TEMPORARILY_BLOCKED at each temporary count,
 * otherwise WRONG_LOGIN_OR_PASSWORD.
 */
export async function recordPoolFailure(
  ctx: AppContext,
  user: UserRecord,
  pool: FailurePool,
  policy: SecurityPolicy,
): Promise<AppError> {
  const now = ctx.now();
  const attempts = (pool.kind === "device" ? pool.device.failed_attempts : user.failed_attempts) + 1;
  const decision = decideOnFailure(policy, attempts, now);
  const blocked = decision === "blocked";
  const until = decision instanceof Date ? decision : undefined;
  if (pool.kind === "device") {
    await signInRepo(ctx.db).updateDeviceAcrossDomains(pool.device.token_hash, {
      failed_attempts: attempts,
      ...(blocked ? { blocked: true } : {}),
      ...(until ? { blocked_until: until } : {}),
    });
  } else {
    await usersRepo(ctx.db).updateUser(user.domain_id, user.id, {
      failed_attempts: attempts,
      ...(blocked ? { untrusted_blocked: true } : {}),
      ...(until ? { blocked_until: until } : {}),
    });
  }
  if (blocked) return blockedByAttempts();
  if (until) return temporarilyBlocked(until);
  return wrongLogin();
}

/**
 * A sign-in under a username nobody has: answers exactly as a real account under the default
 * policy would (a running block first, then a dummy password check, then the count).
 */
export async function refuseUnknownUsername(
  ctx: AppContext,
  username: string,
  password: string,
): Promise<never> {
  const now = ctx.now();
  const repo = signInRepo(ctx.db);
  const key = createHash("sha256").update(username.trim().toLowerCase()).digest("hex");
  const row = await repo.findUnknown(key);
  if (row?.blocked_until && row.blocked_until.getTime() > now.getTime())
    throw temporarilyBlocked(row.blocked_until);
  // Verify against a dummy hash anyway, so timing does not tell which usernames exist.
  await verifyDummyPassword(password);
  const attempts = await repo.countUnknownFailure(key, now);
  const decision = decideOnFailure(DEFAULT_POLICY, attempts, now);
  if (decision === "blocked") throw blockedByAttempts();
  if (decision instanceof Date) {
    await repo.blockUnknown(key, decision);
    throw temporarilyBlocked(decision);
  }
  throw wrongLogin();
}

/**
 * After a successful sign-in: the pool's count starts over, and a browser without a live cookie
 * for the user gets one (answered, to be set by the route).
 */
export async function rememberSignedInBrowser(
  ctx: AppContext,
  user: UserRecord,
  pool: FailurePool,
): Promise<DeviceCookie | null> {
  const repo = signInRepo(ctx.db);
  if (pool.kind === "device") {
    await repo.updateDeviceAcrossDomains(pool.device.token_hash, { failed_attempts: 0, blocked_until: null });
    return null;
  }
  const now = ctx.now();
  const value = generateToken();
  await repo.insertDeviceAcrossDomains({
    token_hash: hashToken(value),
    user_id: user.id,
    create_time: now,
    expires_at: new Date(now.getTime() + DEVICE_COOKIE_DAYS * 24 * 60 * MINUTE_MS),
  });
  return { name: deviceCookieName(user.id), value, maxAgeSeconds: DEVICE_COOKIE_DAYS * 24 * 60 * 60 };
}
