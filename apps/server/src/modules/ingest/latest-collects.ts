import { LRUCache } from "lru-cache";
import type { CollectUpsert } from "./ingest.repo";

/** Device collects (device and type) a node remembers at most: beyond, the least recently used go. */
export const LATEST_COLLECTS_MAX = 200_000;

/**
 * The latest data per device and collect type as last written by this node, so a batch diffs a
 * report against it without reading the stored data again. A remembered entry answers only for the
 * seq it was written with, so another node's newer write is never diffed against stale data.
 */
export function latestCollectsCache(max = LATEST_COLLECTS_MAX) {
  const entries = new LRUCache<string, { seq: number; data: unknown }>({ max });
  const keyOf = (deviceId: string, type: string) => `${deviceId}\u0000${type}`;
  return {
    /** The data written with `seq`, or undefined when this node did not write that one. */
    find(deviceId: string, type: string, seq: number): { data: unknown } | undefined {
      const entry = entries.get(keyOf(deviceId, type));
      return entry && entry.seq === seq ? { data: entry.data } : undefined;
    },
    remember(collects: readonly Pick<CollectUpsert, "device_id" | "type" | "seq" | "data">[]): void {
      for (const row of collects)
        entries.set(keyOf(row.device_id, row.type), { seq: row.seq, data: row.data });
    },
    get size(): number {
      return entries.size;
    },
  };
}

/** The type of {@link latestCollectsCache}'s answer. */
export type LatestCollectsCache = ReturnType<typeof latestCollectsCache>;
