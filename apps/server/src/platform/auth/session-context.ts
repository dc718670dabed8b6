import type { Role } from "@cellfleet/contract";
import type { UserRecord } from "../db/schema";

/** Who is calling: set on every request of a non-public route once its token is accepted. */
export interface SessionContext {
  sessionId: string;
  user: UserRecord;
  /** The user's domain; null for superusers. */
  domainId: string | null;
  role: Role;
  /** Demo sessions may read but never save. */
  isDemo: boolean;
  token: string;
  /** The policy asks for a second factor the person has not enrolled: only the profile answers (ADR 039). */
  isSecondFactorPending: boolean;
}

/**
 * Turns a token into a session or throws the AppError of the first check it fails.
 * `touch` records activity (HTTP calls do; the socket's periodic re-check does not).
 */
export type SessionResolver = (token: string | null, options: { touch: boolean }) => Promise<SessionContext>;
