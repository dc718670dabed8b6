import { type ConnectRefusal, isProtocolIdent } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { DB } from "../../platform/db/schema";
import { type RefusalUpsert, refusalsRepo } from "./refusals.repo";

/** Writes refusals this often at most: one statement for every ident refused meanwhile. */
export const REFUSAL_FLUSH_MS = 5000;
/** Idents held between two flushes; refusals of further idents are counted and dropped. */
export const REFUSAL_PENDING_MAX = 10_000;

/** Keeps the last refused connection per ident for the device's page (issue 18). */
export interface RefusalRecorder {
  /** Notes a refusal; never the offered password. Cheap: memory only until the next flush. */
  record(ident: string, reason: ConnectRefusal, address: string | undefined): void;
  /** Writes what is pending now (tests and close call it). */
  flush(): Promise<void>;
  /** Idents dropped because too many were pending, and statements written, since start. */
  stats(): { dropped: number; writes: number };
  close(): Promise<void>;
}

/**
 * A recorder that coalesces: however many times an ident is refused between two flushes, it costs
 * one row in one statement, so a flood of refused connects is not a flood of writes. Only idents a
 * router could have (protocol idents) are kept; the address is the peer's IP, or null when the
 * broker does not tell it.
 */
export function createRefusalRecorder(deps: {
  db: Kysely<DB>;
  now: () => Date;
  log: { error(obj: object, msg: string): void };
  flushMs?: number;
  maxPending?: number;
}): RefusalRecorder {
  const repo = refusalsRepo(deps.db);
  const maxPending = deps.maxPending ?? REFUSAL_PENDING_MAX;
  let pending = new Map<string, RefusalUpsert>();
  let dropped = 0;
  let writes = 0;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (pending.size === 0) return writing;
    const rows = [...pending.values()];
    pending = new Map();
    writing = writing
      .then(() => repo.upsertRefusals(rows))
      .then(
        () => {
          writes++;
        },
        (error: unknown) => deps.log.error({ err: error, idents: rows.length }, "refusals not recorded"),
      );
    return writing;
  };
  const timer = setInterval(() => void flush(), deps.flushMs ?? REFUSAL_FLUSH_MS);
  timer.unref();

  return {
    record(ident, reason, address) {
      if (!isProtocolIdent(ident)) return;
      const entry = pending.get(ident);
      if (entry) {
        entry.reason = reason;
        entry.time = deps.now();
        entry.address = address ?? null;
        entry.count++;
        return;
      }
      if (pending.size >= maxPending) {
        dropped++;
        return;
      }
      pending.set(ident, { ident, reason, time: deps.now(), address: address ?? null, count: 1 });
    },
    flush,
    stats: () => ({ dropped, writes }),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
