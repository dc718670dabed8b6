import type { LoginAnswer, LoginRequest, SecondFactorSignIn, SessionUser } from "@cellfleet/contract";
import { apiRequest } from "../api/http";
import { endSession } from "./endSession";
import { sessionStore } from "./sessionStore";

/**
 * POST /api/login/: signs in and stores the user, or answers the second step a person with a
 * second factor takes first (ADR 039); a failed login removes any stored token.
 */
export async function signIn(credentials: LoginRequest): Promise<LoginAnswer> {
  try {
    const answer = await apiRequest("POST /api/login/", { body: credentials, quiet: true });
    if ("second_factor" in answer) return answer;
    sessionStore.set(answer);
    return answer;
  } catch (error) {
    sessionStore.clear();
    throw error;
  }
}

/** POST /api/login/second-factor: the second step; a right factor stores the user. */
export async function signInSecondStep(step: SecondFactorSignIn): Promise<SessionUser> {
  const user = await apiRequest("POST /api/login/second-factor", { body: step, quiet: true });
  sessionStore.set(user);
  return user;
}

/** POST /api/accounting/self: re-reads the signed-in user (role, factory password, expiry). */
export async function refreshSession(signal?: AbortSignal): Promise<SessionUser | null> {
  const token = sessionStore.token();
  if (!token) return null;
  const user = await apiRequest("POST /api/accounting/self", { body: {}, signal });
  // The token this tab holds stays the token it uses, whatever the answer carries.
  if (sessionStore.token() !== token) return sessionStore.get();
  const next = { ...user, token };
  sessionStore.set(next);
  return next;
}

/** POST /api/logout/, then forget the session and every cached query whatever the answer. */
export async function signOut(): Promise<void> {
  try {
    if (sessionStore.token()) await apiRequest("POST /api/logout/", { body: {}, quiet: true });
  } catch {
    // The session ends here either way.
  } finally {
    endSession();
  }
}
