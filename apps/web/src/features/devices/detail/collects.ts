import {
  COLLECT_TYPES,
  type CollectMessageMap,
  CollectSchemas,
  type CollectType,
  type DeviceDetail,
} from "@cellfleet/contract";

/** The readable payload of one collect type, or null when never reported or not matching its schema. */
export function collectData<T extends CollectType>(
  detail: DeviceDetail,
  type: T,
): CollectMessageMap[T] | null {
  const collect = detail.collects.find((entry) => entry.type === type);
  if (!collect || collect.data == null) return null;
  // The server stores a report without its envelope (v, seq, ts); only the state is shown, so a
  // neutral envelope lets the protocol's own schema check the rest.
  const parsed = CollectSchemas[type].safeParse({ v: 1, seq: 0, ts: 0, ...(collect.data as object) });
  return parsed.success ? (parsed.data as CollectMessageMap[T]) : null;
}

/** One item of a socket `collects` message (the ingest sends what it committed). */
export interface CollectUpdate {
  device_id: string;
  type: CollectType;
  create_time: number;
  data: unknown;
}

/** The items of a `collects` message that are well formed; others are ignored. */
export function collectUpdatesOf(message: unknown): CollectUpdate[] {
  const content = (message as { content?: unknown })?.content;
  if (!Array.isArray(content)) return [];
  return content.filter((item): item is CollectUpdate => {
    const entry = item as Partial<CollectUpdate>;
    return (
      typeof entry?.device_id === "string" &&
      typeof entry.create_time === "number" &&
      (COLLECT_TYPES as readonly string[]).includes(String(entry.type))
    );
  });
}

/** The device page's data with newer collects of its device applied; each is fresh as it just came. */
export function applyCollectUpdates(detail: DeviceDetail, updates: readonly CollectUpdate[]): DeviceDetail {
  const mine = updates.filter((update) => update.device_id === detail.device._id);
  if (mine.length === 0) return detail;
  const collects = detail.collects.map((collect) => {
    const latest = mine
      .filter((update) => update.type === collect.type)
      .reduce<CollectUpdate | null>(
        (best, update) => (!best || update.create_time >= best.create_time ? update : best),
        null,
      );
    if (!latest || (collect.create_time !== null && latest.create_time < collect.create_time)) return collect;
    return { ...collect, create_time: latest.create_time, data: latest.data, is_fresh: true };
  });
  return { ...detail, collects };
}
