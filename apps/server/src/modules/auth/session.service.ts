import {
  type ErrorCode,
  isSecondFactorRequired,
  REAUTH_WINDOW_MINUTES,
  type Role,
  type ServerSocketMessage,
} from "@cellfleet/contract";
import type { SessionContext, SessionResolver } from "../../platform/auth/session-guard";
import { hashToken } from "../../platform/auth/tokens";
import { sessionTopic } from "../../platform/bus/bus";
import type { AppContext } from "../../platform/context";
import { afterUnitCommit } from "../../platform/db/unit-of-work";
import { AppError } from "../../platform/errors";
import { findEffectivePolicy } from "../policies/policies.service";
import { usersRepo } from "../users/users.repo";
import { isPasswordExpired } from "../users/users.rules";
import { AUTH_CHANGED_TOPIC, SessionCache, type SessionRecords } from "./session-cache";
import { type SessionEndReason, sessionsRepo } from "./sessions.repo";

/** last_seen_at is written at most this often, so every call does not cost a write. */
const TOUCH_INTERVAL_MS = 60_000;

/** Ends a session and tells its open sockets, which close with the given code. */
export async function endSession(
  ctx: AppContext,
  sessionId: string,
  reason: SessionEndReason,
  code: ErrorCode,
): Promise<void> {
  const hasEnded = await sessionsRepo(ctx.db).endSessionAcrossDomains(sessionId, ctx.now(), reason);
  if (!hasEnded) return;
  const message: ServerSocketMessage = { type: "session", state: "ended", code };
  await Promise.all([ctx.bus.publish(sessionTopic(sessionId), message), announceAuthChange(ctx)]);
}

/**
 * With the user's policy asking for re-authentication, a session may save accounting changes only
 * within REAUTH_WINDOW_MINUTES of signing in; later saves answer REAUTH (401), and the web signs the
 * person in again.
 */
export async function assertRecentSignIn(ctx: AppContext, session: SessionContext): Promise<void> {
  const policy = await findEffectivePolicy(ctx.db, session.user);
  if (!policy.reauthentication) return;
  const row = await sessionsRepo(ctx.db).findSessionByTokenHashAcrossDomains(hashToken(session.token));
  if (!row) return;
  if (ctx.now().getTime() - row.create_time.getTime() > REAUTH_WINDOW_MINUTES * 60_000) {
    throw new AppError("REAUTH", "Sign in again to save this change");
  }
}

/** The session cache of each app (keyed by its bus), so its own changes clear it without the bus. */
const localCaches = new WeakMap<object, SessionCache>();

/**
 * Tells every node that sessions, users, domains or policies may have changed (their caches forget).
 * This node's cache forgets as soon as the change commits, before the answer goes out: the bus
 * message reaches other nodes, and this one too, only a network round trip later, and the caller's
 * next request must not see the state before its own change.
 */
export async function announceAuthChange(ctx: AppContext): Promise<void> {
  const cache = localCaches.get(ctx.bus);
  if (cache) afterUnitCommit(() => cache.clear());
  await ctx.bus.publish(AUTH_CHANGED_TOPIC, null);
}

/** The session of a token, its user and the user's policy, from the cache or the database. */
async function loadSessionRecords(
  ctx: AppContext,
  cache: SessionCache,
  tokenHash: string,
): Promise<SessionRecords> {
  const cached = cache.get(tokenHash);
  if (cached) return cached;
  const stamp = cache.stamp;
  const session = await sessionsRepo(ctx.db).findSessionByTokenHashAcrossDomains(tokenHash);
  if (!session || session.ended_at !== null) throw new AppError("TOKEN_INVALID", "The token is not valid");
  const user = await usersRepo(ctx.db).findUserByIdAcrossDomains(session.user_id);
  if (!user) {
    await endSession(ctx, session.id, "user_removed", "TOKEN_INVALID");
    throw new AppError("TOKEN_INVALID", "The token is not valid");
  }
  const records = { session, user, policy: await findEffectivePolicy(ctx.db, user) };
  cache.set(tokenHash, stamp, records);
  return records;
}

/**
 * The session checks, in order: no token, unknown or ended token, expired session, inactivity
 * beyond the user's policy, blocked user, expired password. HTTP and the socket share them.
 */
export function createSessionResolver(ctx: AppContext, cache = new SessionCache()): SessionResolver {
  ctx.bus.subscribe(AUTH_CHANGED_TOPIC, () => cache.clear());
  localCaches.set(ctx.bus, cache);
  return async (token, { touch }): Promise<SessionContext> => {
    if (!token) throw new AppError("TOKEN_NOT_GIVEN", "No token given");
    const { session, user, policy } = await loadSessionRecords(ctx, cache, hashToken(token));

    const now = ctx.now();
    if (session.expires_at.getTime() <= now.getTime()) {
      await endSession(ctx, session.id, "expired", "TOKEN_HAS_EXPIRED");
      throw new AppError("TOKEN_HAS_EXPIRED", "The session has expired");
    }
    if (user.removed_at !== null) {
      await endSession(ctx, session.id, "user_removed", "USER_REMOVED");
      throw new AppError("USER_REMOVED", "The user was removed");
    }
    const idleMs = now.getTime() - session.last_seen_at.getTime();
    if (policy.inactivity_minutes > 0 && idleMs > policy.inactivity_minutes * 60_000) {
      await endSession(ctx, session.id, "inactivity", "INACTIVITY_TIMEOUT");
      throw new AppError("INACTIVITY_TIMEOUT", "The session ended after a period of inactivity");
    }
    if (user.blocked) throw new AppError("USER_BLOCKED", "The user is blocked");
    if (isPasswordExpired(user.password_expire_date, now)) {
      throw new AppError("PASSWORD_EXPIRED", "The password has expired");
    }
    if (touch && idleMs >= TOUCH_INTERVAL_MS) {
      await sessionsRepo(ctx.db).touchSessionAcrossDomains(session.id, now);
      // The cached row follows the write, so the next call neither re-touches nor times out.
      session.last_seen_at = now;
    }

    return {
      sessionId: session.id,
      user,
      domainId: user.domain_id,
      role: user.role as Role,
      isDemo: user.is_demo,
      token,
      isSecondFactorPending:
        !user.has_second_factor &&
        !user.is_demo &&
        isSecondFactorRequired(policy.second_factor_required_for, user.role as Role),
    };
  };
}
