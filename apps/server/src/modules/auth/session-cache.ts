import type { SecurityPolicy } from "@cellfleet/contract";
import { LRUCache } from "lru-cache";
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
  private readonly entries: LRUCache<string, SessionRecords> | null;
  private generation = 0;

  /** Keeps up to `maxEntries` tokens' records (the least recently used go first); a TTL of 0 keeps none. */
  constructor(ttlMs = SESSION_CACHE_TTL_MS, maxEntries = 10_000) {
    this.entries = ttlMs > 0 ? new LRUCache({ max: maxEntries, ttl: ttlMs }) : null;
  }

  /** The cache's state now; hand it back to `set` so a clear in between discards the stale read. */
  get stamp(): number {
    return this.generation;
  }

  get(tokenHash: string): SessionRecords | undefined {
    return this.entries?.get(tokenHash);
  }

  set(tokenHash: string, stamp: number, records: SessionRecords): void {
    if (stamp === this.generation) this.entries?.set(tokenHash, records);
  }

  clear(): void {
    this.generation++;
    this.entries?.clear();
  }
}
