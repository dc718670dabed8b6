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
  /** The API token the call came with (`Authorization: Bearer`, ADR 040); absent for a signed-in person. */
  apiToken?: ApiTokenGrant;
}

/** What an API token adds to its person's session: its name (for the audit) and the actions it carries. */
export interface ApiTokenGrant {
  id: string;
  name: string;
  permissions: readonly string[];
  /** Routers carrying one of these tags only, within the person's own (ADR 041); empty: no narrowing. */
  tagScope: readonly string[];
}

/**
 * Turns a token into a session or throws the AppError of the first check it fails.
 * `touch` records activity (HTTP calls do; the socket's periodic re-check does not).
 */
export type SessionResolver = (token: string | null, options: { touch: boolean }) => Promise<SessionContext>;

/** Turns an API token, and the address the call came from, into its person's session or throws. */
export type ApiTokenResolver = (token: string, clientIp: string) => Promise<SessionContext>;
