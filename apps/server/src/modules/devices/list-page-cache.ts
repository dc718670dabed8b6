import { type Bus, domainTopic } from "../../platform/bus/bus";
import { listCountCache } from "./list-count-cache";
import { RevalidatingCache } from "./revalidating-cache";

/**
 * Pages of the device list shared between the viewers of a domain until the domain changes (ADR 046).
 * Thirty-two people on the same default page would otherwise have PostgreSQL read and build the
 * same 10 to 100 lines thirty-two times. A page is read again, and waited for, after:
 *
 * - any message on the domain's bus topic: the writes of a router's row publish one (ingest's
 *   `devices` after each batch, an edit, an import, a delete, the status sweep, events read), from
 *   any server node, so this node hears of it when its sockets do (the cache subscribes to the topic
 *   of each domain it keeps pages of, and lets go of it after `IDLE_MS` without a read);
 * - a device write through this node (ListCountCache's generation, bumped once the write commits).
 *
 * The domain unchanged, a page is also read again once per `ttlMs` and once per window of the clock
 * (the caller's `window`: the lines' statuses are judged at one moment of it), so that what
 * publishes nothing (a copy's backups flag), a status the clock moves on and a change whose message
 * the bus dropped (at most once, ADR 008) show. That read runs behind the page: its callers, until
 * it ends, are answered the page kept (stale while revalidating, as ListCountCache does), so no one
 * waits at the turn of a window where thirty-two would have; such a page is at most two windows
 * old. A clock that jumps further (a test's) or a page unread for 2 × `ttlMs` is waited for.
 *
 * A page read while a change commits is kept under the domain's state it started from, so it is
 * never served after that change's message. Concurrent requests for one page share one read.
 * What each viewer sees of their own (the unread counts) is not in the page (see SharedDeviceLine).
 */
export class ListPageCache {
  private readonly pages: RevalidatingCache;
  private readonly watches = new Map<Bus, Map<string, Watch>>();
  /** Numbers each watch's states: a key never comes back after the domain changed or was let go. */
  private sequence = 0;
  private sweptAt = 0;

  constructor(
    private readonly ttlMs: number,
    maxEntries = 1000,
    private readonly idleMs = IDLE_MS,
  ) {
    this.pages = new RevalidatingCache(ttlMs, maxEntries);
  }

  /**
   * The page under `key` of the domain as it is now in the clock's `window`, or the one `read`
   * answers, shared. `read` is given the page it replaces when it runs behind one.
   */
  get<T>(
    bus: Bus,
    domainId: string,
    key: string,
    window: number,
    read: (kept?: T) => Promise<T>,
  ): Promise<T> {
    if (this.ttlMs <= 0) return read();
    const now = performance.now();
    const watch = this.watch(bus, domainId, now);
    const fullKey = `${domainId}\u0000${listCountCache.generationOf(domainId)}\u0000${watch.state}\u0000${key}`;
    if (now - this.sweptAt >= this.ttlMs) this.evict(now);
    return this.pages.get(fullKey, window, read, now);
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

  /** Drops pages too old to serve, then the oldest half if still full; lets go of domains no one read lately. */
  private evict(now: number): void {
    this.sweptAt = now;
    this.pages.evict(now);
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

interface Watch {
  /** Changes with every message of the domain's topic. */
  state: number;
  lastRead: number;
  unsubscribe: () => void;
}

/** How long a domain's topic stays subscribed after its last page read. */
const IDLE_MS = 60_000;

/** How long a page is kept before it is read again behind itself, changes or not; also the clock's window. */
export const LIST_PAGE_TTL_MS = 5000;

/** The server's shared list pages (one per process; keys carry the domain id, watches the bus). */
export const listPageCache = new ListPageCache(LIST_PAGE_TTL_MS);
