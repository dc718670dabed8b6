/**
 * A short-lived cache of list totals and facets per domain and filter. An exact count over a
 * domain of 100,000 devices reads every matching row, which at 32 concurrent lists on two cores
 * would dominate the answer; the rows of a page, by contrast, come off an index in a millisecond.
 * So identical filters within `ttlMs` share one count (also while it is still running), and any
 * device write made through this server drops the domain's entries at once. A total may therefore
 * lag by at most `ttlMs` behind changes made elsewhere (ingest, another server node, time passing
 * a status threshold); the rows themselves are always read fresh. See docs/adr/ for the decision.
 */
export class ListCountCache {
  private readonly entries = new Map<string, { expiresAt: number; value: Promise<unknown> }>();
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 2000,
  ) {}

  /** The cached value of (domain, key), or the one `compute` answers, shared by concurrent callers. */
  async get<T>(domainId: string, key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    const now = performance.now();
    const fullKey = `${domainId}\u0000${this.generations.get(domainId) ?? 0}\u0000${key}`;
    const hit = this.entries.get(fullKey);
    if (hit && hit.expiresAt > now) return hit.value as Promise<T>;
    if (this.entries.size >= this.maxEntries) this.evictExpired(now);
    const value = compute();
    this.entries.set(fullKey, { expiresAt: now + this.ttlMs, value });
    // A failed count must not be served to the next caller.
    value.catch(() => this.entries.delete(fullKey));
    return value;
  }

  /** Forgets the domain's entries: called after every device write of the domain. */
  invalidate(domainId: string): void {
    this.generations.set(domainId, (this.generations.get(domainId) ?? 0) + 1);
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    // Still full of live entries: drop the oldest half (Map keeps insertion order).
    if (this.entries.size >= this.maxEntries) {
      let toDrop = Math.ceil(this.entries.size / 2);
      for (const key of this.entries.keys()) {
        if (toDrop-- <= 0) break;
        this.entries.delete(key);
      }
    }
  }
}

/** How long a list total or facets stay shared between identical requests. */
export const LIST_COUNT_TTL_MS = 2000;

/** The server's list count cache (one per process; keys carry the domain id). */
export const listCountCache = new ListCountCache(LIST_COUNT_TTL_MS);
