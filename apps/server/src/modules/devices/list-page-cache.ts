import { type Bus, domainTopic } from "../../platform/bus/bus";
import { dropOldestHalfWhenFull, listCountCache } from "./list-count-cache";

/**
 * Pages of the device list shared between the viewers of a domain until the domain changes (ADR 046).
 * Thirty-two people on the same default page would otherwise have PostgreSQL read and build the
 * same 10 to 100 lines thirty-two times. A page is kept until the first of:
 *
 * - any message on the domain's bus topic: the writes of a router's row publish one (ingest's
 *   `devices` after each batch, an edit, an import, a delete, the status sweep, events read), from
 *   any server node, so this node hears of it when its sockets do (the cache subscribes to the topic
 *   of each domain it keeps pages of, and lets go of it after `IDLE_MS` without a read);
 * - a device write through this node (ListCountCache's generation, bumped once the write commits);
 * - `ttlMs` after it was read, so what publishes nothing (a copy's backups flag), a status judged by
 *   the clock (the page's contact ranges; the list also keys its pages by the clock's window of this
 *   length) and a change whose message the bus dropped (at most once, ADR 008) are never older.
 *
 * A page read while a change commits is kept under the domain's state it started from, so it is
 * never served after that change's message. Concurrent requests for one page share one read.
 * What each viewer sees of their own (the unread counts) is not in the page (see SharedDeviceLine).
 */
export class ListPageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly watches = new Map<Bus, Map<string, Watch>>();
  /** Numbers each watch's states: a key never comes back after the domain changed or was let go. */
  private sequence = 0;
  private sweptAt = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
    private readonly idleMs = IDLE_MS,
  ) {}

  /** The page under `key` of the domain as it is now, or the one `read` answers, shared. */
  get<T>(bus: Bus, domainId: string, key: string, read: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return read();
    const now = performance.now();
    const watch = this.watch(bus, domainId, now);
    const fullKey = `${domainId}\u0000${listCountCache.generationOf(domainId)}\u0000${watch.state}\u0000${key}`;
    const hit = this.entries.get(fullKey);
    if (hit && hit.expiresAt > now) return hit.value as Promise<T>;
    if (this.entries.size >= this.maxEntries || now - this.sweptAt >= this.ttlMs) this.evict(now);
    const entry: Entry = { value: read(), expiresAt: now + this.ttlMs };
    this.entries.set(fullKey, entry);
    // A failed read must not be served to the next caller.
    entry.value.catch(() => {
      if (this.entries.get(fullKey) === entry) this.entries.delete(fullKey);
    });
    return entry.value as Promise<T>;
  }

  /** The domain's watch on this bus, subscribed at its first page. */
  private watch(bus: Bus, domainId: string, now: number): Watch {
    let byDomain = this.watches.get(bus);
    if (!byDomain) {
      byDomain = new Map();
      this.watches.set(bus, byDomain);
    }
    const known = byDomain.get(domainId);
    if (known) {
      known.lastRead = now;
      return known;
    }
    const watch: Watch = { state: ++this.sequence, lastRead: now, unsubscribe: () => {} };
    watch.unsubscribe = bus.subscribe(domainTopic(domainId), () => {
      watch.state = ++this.sequence;
    });
    byDomain.set(domainId, watch);
    return watch;
  }

  /** Drops expired pages, then the oldest half if still full; lets go of domains no one read lately. */
  private evict(now: number): void {
    this.sweptAt = now;
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    dropOldestHalfWhenFull(this.entries, this.maxEntries);
    for (const [bus, byDomain] of this.watches) {
      for (const [domainId, watch] of byDomain) {
        if (now - watch.lastRead < this.idleMs) continue;
        watch.unsubscribe();
        byDomain.delete(domainId);
      }
      if (byDomain.size === 0) this.watches.delete(bus);
    }
  }
}

interface Entry {
  value: Promise<unknown>;
  expiresAt: number;
}

interface Watch {
  /** Changes with every message of the domain's topic. */
  state: number;
  lastRead: number;
  unsubscribe: () => void;
}

/** How long a domain's topic stays subscribed after its last page read. */
const IDLE_MS = 60_000;

/** How long a page is kept at most, changes or not. */
export const LIST_PAGE_TTL_MS = 5000;

/** The server's shared list pages (one per process; keys carry the domain id, watches the bus). */
export const listPageCache = new ListPageCache(LIST_PAGE_TTL_MS);
