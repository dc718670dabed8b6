import type { LoginRequest, SessionUser } from "@cellfleet/contract";
import { verifyDummyPassword, verifyPassword } from "../../platform/auth/passwords";
import type { SessionContext } from "../../platform/auth/session-guard";
import { generateToken, hashToken } from "../../platform/auth/tokens";
import type { AppContext } from "../../platform/context";
import type { UserRecord } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { domainsRepo } from "../domains/domains.repo";
import { findEffectivePolicy } from "../policies/policies.service";
import { toSessionUser } from "../users/users.mapper";
import { usersRepo } from "../users/users.repo";
import {
  assertAccountMaySignIn,
  isTemporarilyBlocked,
  recordWrongPassword,
  signedInColumns,
} from "./account-rules";
import { endSession } from "./session.service";
import { sessionsRepo } from "./sessions.repo";

const HOUR_MS = 60 * 60 * 1000;

function wrongLogin(): AppError {
  return new AppError("WRONG_LOGIN_OR_PASSWORD", "Wrong username or password");
}

/**
 * Finds the user the credentials belong to; unknown users and wrong passwords answer alike. A
 * running temporary block answers USER_TEMPORARILY_BLOCKED without the password being tried, so
 * guessing goes on hold; wrong passwords count towards the policy's blocks.
 */
async function authenticate(ctx: AppContext, request: LoginRequest): Promise<UserRecord> {
  const users = usersRepo(ctx.db);
  if ("demo" in request) {
    const demo = await users.findDemoUserAcrossDomains();
    if (!demo) throw new AppError("WRONG_LOGIN_OR_PASSWORD", "Demo access is not available");
    return demo;
  }
  const found = await users.findUserWithPasswordHashByUsernameAcrossDomains(request.username);
  if (!found) {
    // Verify against a dummy hash anyway, so timing does not tell which usernames exist.
    await verifyDummyPassword(request.password);
    throw wrongLogin();
  }
  const { password_hash: passwordHash, ...user } = found;
  const policy = await findEffectivePolicy(ctx.db, user);
  if (user.removed_at === null && isTemporarilyBlocked(user, ctx.now())) {
    throw new AppError(
      "USER_TEMPORARILY_BLOCKED",
      `The user is blocked until ${user.blocked_until?.toISOString()}`,
    );
  }
  if (!(await verifyPassword(passwordHash, request.password))) {
    if (user.removed_at !== null || user.blocked) throw wrongLogin();
    throw await recordWrongPassword(ctx, user, policy);
  }
  // Account state is told only to someone who knows the password.
  await assertAccountMaySignIn(ctx, user, policy);
  return user;
}

/** Signs a user in: checks credentials and account state, opens a session, answers the session user. */
export async function login(ctx: AppContext, request: LoginRequest, clientIp: string): Promise<SessionUser> {
  const user = await authenticate(ctx, request);
  if (user.blocked) throw new AppError("USER_BLOCKED", "The user is blocked");
  const now = ctx.now();

  const token = generateToken();
  await ctx.db.transaction().execute(async (trx) => {
    await sessionsRepo(trx).insertSessionAcrossDomains({
      user_id: user.id,
      token_hash: hashToken(token),
      create_time: now,
      expires_at: new Date(now.getTime() + ctx.config.sessionTtlHours * HOUR_MS),
      last_seen_at: now,
      client_ip: clientIp,
    });
    await usersRepo(trx).updateUser(user.domain_id, user.id, signedInColumns(now));
    if (user.domain_id !== null) await domainsRepo(trx).recordDomainSession(user.domain_id, now);
  });
  return toSessionUser({ ...user, last_login: now, failed_attempts: 0 }, token);
}

/** Ends the caller's session; its open sockets are told and closed. */
export async function logout(ctx: AppContext, session: SessionContext): Promise<void> {
  // After logout the token answers TOKEN_INVALID, so the socket is closed with that same code.
  await endSession(ctx, session.sessionId, "logout", "TOKEN_INVALID");
}

/** The session user of the caller's current session. */
export function currentSessionUser(session: SessionContext): SessionUser {
  return toSessionUser(session.user, session.token);
}
