/**
 * Values kept by key and read again behind themselves (stale while revalidating): the one mechanism
 * of the list's totals (ListCountCache) and pages (ListPageCache). A value is fresh for `ttlMs` after
 * its read, within the window it was read for (a caller's window of the clock; 0 for callers
 * without one). Past that, or in the next window, the first caller starts one read and every caller
 * until it ends is answered the value kept, so no one waits for a value that was already known; the
 * read is given the value it replaces. A value older than 2 × `ttlMs`, or a window further on (or
 * back), is read and waited for. Concurrent callers share one read; a failed read is never served,
 * and a failed read behind a value keeps it (the next caller tries again).
 */
export class RevalidatingCache {
  private readonly entries = new Map<string, Entry<unknown>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  /** The value under `key` for `window`, or the one `read` answers. */
  get<T>(key: string, window: number, read: (kept?: T) => Promise<T>, now = performance.now()): Promise<T> {
    const hit = this.entries.get(key) as Entry<T> | undefined;
    if (hit && hit.window === window && hit.readAt + this.ttlMs > now) return hit.value;
    if (
      hit?.settled &&
      (hit.window === window || hit.window === window - 1) &&
      hit.readAt + 2 * this.ttlMs > now
    ) {
      if (!hit.isRefreshing) this.refresh(key, hit, window, read);
      return hit.value;
    }
    if (this.entries.size >= this.maxEntries) this.evict(now);
    return this.store(key, read(), window, now);
  }

  /** Drops the values too old to be served, then the oldest half if still full. */
  evict(now: number): void {
    for (const [key, entry] of this.entries)
      if (entry.readAt + 2 * this.ttlMs <= now) this.entries.delete(key);
    if (this.entries.size < this.maxEntries) return;
    // Still full of live values: the oldest half goes (a Map keeps insertion order).
    let toDrop = Math.ceil(this.entries.size / 2);
    for (const key of this.entries.keys()) {
      if (toDrop-- <= 0) break;
      this.entries.delete(key);
    }
  }

  private store<T>(key: string, value: Promise<T>, window: number, now: number): Promise<T> {
    const entry: Entry<T> = { value, window, readAt: now, isRefreshing: false };
    this.entries.set(key, entry as Entry<unknown>);
    value.then(
      (settled) => {
        entry.settled = { value: settled };
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return value;
  }

  private refresh<T>(key: string, kept: Entry<T>, window: number, read: (kept?: T) => Promise<T>): void {
    kept.isRefreshing = true;
    const next = read(kept.settled?.value);
    next.then(
      () => {
        if (this.entries.get(key) === kept) this.store(key, next, window, performance.now());
      },
      () => {
        kept.isRefreshing = false;
      },
    );
  }
}

interface Entry<T> {
  value: Promise<T>;
  /** The window the value was read for, and when (performance.now()). */
  window: number;
  readAt: number;
  /** The value once read. */
  settled?: { value: T };
  isRefreshing: boolean;
}
