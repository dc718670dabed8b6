import type { Kysely } from "kysely";
import type { Bus } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import { publishDevices } from "./ingest.realtime";
import { ingestRepo } from "./ingest.repo";
import { type ConnectionChange, presenceRepo } from "./presence.repo";

/** Connection changes are written this often at most: one statement for every router changed meanwhile. */
export const PRESENCE_FLUSH_MS = 1000;

/** Keeps the devices' `connected` column in step with this node's broker (ADR 032). */
export interface PresenceTracker {
  /** Notes a router's main connection opening or closing. Cheap: memory only until the next flush. */
  note(ident: string, isConnected: boolean): void;
  /**
   * Starts writing as this gateway node (its host and MQTT port, stable across restarts): first
   * closes what the node held before it stopped.
   */
  start(node: string): Promise<void>;
  /** Behind an external broker: nothing is known, so what an embedded broker once said is forgotten. */
  forget(): Promise<void>;
  /** Writes what is pending now (tests and close call it). */
  flush(): Promise<void>;
  stats(): { writes: number; failed: number };
  close(): Promise<void>;
}

/**
 * A tracker that coalesces: thousands of routers connecting after a restart cost one statement a
 * second, not a write each, and a router that flaps within the second costs one row. The changed
 * devices are pushed to their domains' sockets after each write, through the bus, so every node's
 * consoles hear of them; other nodes read the column.
 */
export function createPresenceTracker(deps: {
  db: Kysely<DB>;
  bus: Bus;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
  flushMs?: number;
}): PresenceTracker {
  const repo = presenceRepo(deps.db);
  let node: string | null = null;
  let pending = new Map<string, ConnectionChange>();
  let writes = 0;
  let failed = 0;
  let writing: Promise<void> = Promise.resolve();

  const push = (rows: Parameters<typeof publishDevices>[1]) =>
    publishDevices({ bus: deps.bus, now: deps.now }, rows, ingestRepo(deps.db));

  const flush = (): Promise<void> => {
    if (pending.size === 0 || node === null) return writing;
    const changes = [...pending.values()];
    const owner = node;
    pending = new Map();
    writing = writing
      .then(() => repo.markConnectionsAcrossDomains(owner, changes))
      .then(async (rows) => {
        writes++;
        await push(rows);
      })
      .catch((error: unknown) => {
        failed++;
        deps.log.error({ err: error, routers: changes.length }, "connection changes not written");
      });
    return writing;
  };
  const timer = setInterval(() => void flush(), deps.flushMs ?? PRESENCE_FLUSH_MS);
  timer.unref();

  return {
    note(ident, isConnected) {
      const earlier = pending.get(ident);
      pending.set(ident, {
        ident,
        isConnected,
        time: deps.now(),
        isOpenedHere: isConnected || (earlier?.isOpenedHere ?? false),
      });
    },
    async start(name) {
      const closed = await repo.closeNodeConnectionsAcrossDomains(name, deps.now());
      node = name;
      await push(closed);
    },
    async forget() {
      await repo.forgetConnectionsAcrossDomains();
    },
    flush,
    stats: () => ({ writes, failed }),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
