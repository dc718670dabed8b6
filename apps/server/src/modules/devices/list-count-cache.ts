import { afterUnitCommit } from "../../platform/db/unit-of-work";

/**
 * A short-lived cache of list totals and facets per domain and filter. An exact count over a
 * domain of 100,000 devices reads every matching row, which at 32 concurrent lists on two cores
 * would dominate the answer; the rows of a page, by contrast, come off an index in a millisecond.
 * So identical filters within `ttlMs` share one count (also while it is still running), and any
 * device write made through this server drops the domain's entries at once. A total may therefore
 * lag behind changes made elsewhere (ingest, another server node, time passing a status threshold)
 * by `ttlMs`, and by up to twice that while it is being recounted: once an entry is older than
 * `ttlMs` the next caller starts the recount and, like every caller until it ends, is answered
 * the previous value at once, so no list waits for a count that was already known (stale while
 * revalidating). The rows themselves are always read fresh. See docs/adr/005.
 */
export class ListCountCache {
  private readonly entries = new Map<string, Entry>();
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
    if (hit && hit.freshUntil > now) return hit.value as Promise<T>;
    if (hit?.isSettled && hit.freshUntil + this.ttlMs > now) {
      if (!hit.isRefreshing) this.refresh(fullKey, hit, compute);
      return hit.value as Promise<T>;
    }
    if (this.entries.size >= this.maxEntries) this.evictExpired(now);
    return this.store(fullKey, compute(), now) as Promise<T>;
  }

  private store(fullKey: string, value: Promise<unknown>, now: number): Promise<unknown> {
    const entry: Entry = { freshUntil: now + this.ttlMs, value, isSettled: false, isRefreshing: false };
    this.entries.set(fullKey, entry);
    value.then(
      () => {
        entry.isSettled = true;
      },
      // A failed count must not be served to the next caller.
      () => {
        if (this.entries.get(fullKey) === entry) this.entries.delete(fullKey);
      },
    );
    return value;
  }

  /** Recounts an entry past its time; the old value is served until the new one is known. */
  private refresh(fullKey: string, stale: Entry, compute: () => Promise<unknown>): void {
    stale.isRefreshing = true;
    const next = compute();
    next.then(
      () => {
        if (this.entries.get(fullKey) === stale) this.store(fullKey, next, performance.now());
      },
      () => {
        stale.isRefreshing = false;
      },
    );
  }

  /**
   * Forgets the domain's entries: called on every device write of the domain. Inside a unit of work
   * it waits for the commit, so a count read between the write and the commit (still the old rows)
   * is not kept as the new one; a rollback forgets nothing.
   */
  invalidate(domainId: string): void {
    afterUnitCommit(() => {
      this.generations.set(domainId, (this.generations.get(domainId) ?? 0) + 1);
    });
  }

  /** How many times the domain's entries were forgotten: other caches key by it to forget with them. */
  generationOf(domainId: string): number {
    return this.generations.get(domainId) ?? 0;
  }

  private evictExpired(now: number): void {
    for (const [key, entry] of this.entries)
      if (entry.freshUntil + this.ttlMs <= now) this.entries.delete(key);
    dropOldestHalfWhenFull(this.entries, this.maxEntries);
  }
}

/** A cache still full of live entries drops its oldest half (a Map keeps insertion order). */
export function dropOldestHalfWhenFull(entries: Map<string, unknown>, maxEntries: number): void {
  if (entries.size < maxEntries) return;
  let toDrop = Math.ceil(entries.size / 2);
  for (const key of entries.keys()) {
    if (toDrop-- <= 0) break;
    entries.delete(key);
  }
}

interface Entry {
  /** Until then the value is served as it is; for `ttlMs` more it is served while a recount runs. */
  freshUntil: number;
  value: Promise<unknown>;
  isSettled: boolean;
  isRefreshing: boolean;
}

/** How long a list total or facets stay shared between identical requests. */
export const LIST_COUNT_TTL_MS = 2000;

/** The server's list count cache (one per process; keys carry the domain id). */
export const listCountCache = new ListCountCache(LIST_COUNT_TTL_MS);
