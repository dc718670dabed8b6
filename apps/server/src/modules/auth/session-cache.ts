import type { SecurityPolicy } from "@cellfleet/contract";
import type { SessionRow, UserRecord } from "../../platform/db/schema";

/** What a token resolves to in the database: the session, its user and the user's policy. */
export interface SessionRecords {
  session: SessionRow;
  user: UserRecord;
  policy: SecurityPolicy;
}

/** Bus topic of "sessions, users, domains or policies may have changed": every node's cache forgets. */
export const AUTH_CHANGED_TOPIC = "auth:changed";

/** How long resolved records are reused when nothing said they changed (writes from elsewhere). */
export const SESSION_CACHE_TTL_MS = 5000;

/**
 * The records behind recently used tokens, so that an authenticated call costs no database round
 * trip for its session (ADR 006). The checks themselves (expiry, inactivity, blocked, password
 * expiry) still run on every call against the clock; only the rows are reused. Every saving call,
 * every audited one (sign-in, sign-out, registration, reset) and every ended session clears the
 * cache before its answer goes out; a resolve that started before a clear never stores what it read.
 */
export class SessionCache {
  private readonly entries = new Map<string, { expiresAt: number; records: SessionRecords }>();
  private generation = 0;

  constructor(
    private readonly ttlMs = SESSION_CACHE_TTL_MS,
    private readonly maxEntries = 10_000,
  ) {}

  /** The cache's state now; hand it back to `set` so a clear in between discards the stale read. */
  get stamp(): number {
    return this.generation;
  }

  get(tokenHash: string): SessionRecords | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (entry.expiresAt > performance.now()) return entry.records;
    this.entries.delete(tokenHash);
    return undefined;
  }

  set(tokenHash: string, stamp: number, records: SessionRecords): void {
    if (this.ttlMs <= 0 || stamp !== this.generation) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(tokenHash, { expiresAt: performance.now() + this.ttlMs, records });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
