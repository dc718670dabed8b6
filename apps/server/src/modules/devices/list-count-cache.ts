import { afterUnitCommit } from "../../platform/db/unit-of-work";
import { RevalidatingCache } from "./revalidating-cache";

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
 * revalidating, RevalidatingCache). The rows are kept by ListPageCache. See docs/adr/005.
 */
export class ListCountCache {
  private readonly counts: RevalidatingCache;
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    maxEntries = 2000,
  ) {
    this.counts = new RevalidatingCache(ttlMs, maxEntries);
  }

  /** The cached value of (domain, key), or the one `compute` answers, shared by concurrent callers. */
  async get<T>(domainId: string, key: string, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    return this.counts.get(`${domainId}\u0000${this.generations.get(domainId) ?? 0}\u0000${key}`, 0, () =>
      compute(),
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
}

/** How long a list total or facets stay shared between identical requests. */
export const LIST_COUNT_TTL_MS = 2000;

/** The server's list count cache (one per process; keys carry the domain id). */
export const listCountCache = new ListCountCache(LIST_COUNT_TTL_MS);
