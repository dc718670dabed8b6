import type { ServerSocketMessage } from "@cellfleet/contract";
import { sameJson } from "../json";

/**
 * Live views (ADR 035): a socket that said what its page shows receives the changes of that only,
 * gathered per socket and sent at most once per flush interval, latest-wins per key (a device, a
 * device's collect type), as the changed fields of a device row where the socket already has the
 * row. Frames are built and encoded once per flush for all the sockets that get the same frame. A
 * socket whose peer does not read keeps only its latest pending changes; past a bound it drops them
 * and is sent one `reread` mark once it drains, instead of an unbounded queue.
 */

/** Flush period and backpressure bounds; tests shorten them. */
export interface LiveViewLimits {
  /** Pending view changes go out this often, at most (one frame per message kind). */
  flushIntervalMs: number;
  /** A socket with more bytes than this buffered is behind: nothing more is written to it. */
  highWaterBytes: number;
  /** A socket gathering more pending changes than this drops them for one `reread` mark. */
  maxPendingChanges: number;
  /** A socket behind for longer than this drops its pending changes for one `reread` mark. */
  maxBehindMs: number;
  /**
   * Device rows pushed within this long are kept per domain, so a view that begins showing one is
   * sent it (the change fell between the page's read and its view message).
   */
  recentRowsMs: number;
  /** At most this many recent rows are kept per domain (the oldest go first). */
  maxRecentRows: number;
}

export const DEFAULT_LIVE_VIEW_LIMITS: LiveViewLimits = {
  flushIntervalMs: 250,
  highWaterBytes: 1024 * 1024,
  maxPendingChanges: 5000,
  maxBehindMs: 15_000,
  recentRowsMs: 10_000,
  maxRecentRows: 20_000,
};

/** Where a live socket writes: the parts of a `ws` WebSocket it needs. */
export interface FrameSink {
  readonly bufferedAmount: number;
  isOpen(): boolean;
  /** Writes one text frame; the buffer is shared with other sockets and must not be changed. */
  sendFrame(frame: Buffer): void;
}

/** A device row or event as pushed (plain JSON object). */
export type Row = Record<string, unknown>;

/** A device's latest push in a domain, kept for views that begin showing it. */
interface RecentRow {
  item: Row;
  action: "update" | "delete";
  at: number;
}

/** What the hub flushes: a socket with changes waiting. */
interface Flushable {
  flush(): void;
}

/** A plain JSON object (not an array). */
export function isRow(value: unknown): value is Row {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The fields of `next` that differ from `previous` (with `_id`), a field gone as null; null when none differ. */
export function rowChange(previous: Row, next: Row): Row | null {
  const change: Row = { _id: next._id };
  let changed = false;
  for (const key of Object.keys(next)) {
    if (key === "_id" || sameJson(previous[key], next[key])) continue;
    change[key] = next[key];
    changed = true;
  }
  for (const key of Object.keys(previous)) {
    if (key in next) continue;
    change[key] = null;
    changed = true;
  }
  return changed ? change : null;
}

/** `changeOf`: the row changed no field. */
export const UNCHANGED: Row = Object.freeze({});

const REREAD_FRAME_TEXT = JSON.stringify({ type: "reread" } satisfies ServerSocketMessage);

/**
 * One server node's live views: the rows last pushed for the devices some socket views (to
 * compute changes once per push, not per socket), the sockets with changes to flush, and the
 * frames encoded in the current flush.
 */
export class LiveViews {
  /** How many frames were encoded since start (each shared by every socket it went to). */
  framesEncoded = 0;
  /** Browser sockets open on this node now (GET /metrics). */
  openSockets = 0;
  /** Bytes written to browser sockets since start, every frame counted per socket it went to. */
  bytesSent = 0;
  private readonly viewers = new Map<string, number>();
  private readonly lastRows = new Map<string, Row>();
  /** The change each pushed row made, computed once for every socket that gets it. */
  private readonly changes = new WeakMap<Row, Row | null>();
  private readonly dirty = new Set<Flushable>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private frames = new Map<string, Buffer>();
  private readonly fragmentIds = new WeakMap<object, number>();
  private nextFragmentId = 1;
  private readonly fragments = new WeakMap<object, string>();
  private readonly indexes = new WeakMap<readonly unknown[], Map<string, Row[]>>();
  /** Per domain topic, the latest push of each device pushed lately, oldest first. */
  private readonly recent = new Map<string, Map<string, RecentRow>>();
  private readonly remembered = new WeakSet<object>();
  private lastSweep = 0;

  constructor(readonly limits: LiveViewLimits) {}

  /** Stops the flush timer (the server closes). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty.clear();
    this.recent.clear();
  }

  /** @internal */
  watch(ids: Iterable<string>, delta: 1 | -1): void {
    for (const id of ids) {
      const count = (this.viewers.get(id) ?? 0) + delta;
      if (count > 0) this.viewers.set(id, count);
      else {
        this.viewers.delete(id);
        this.lastRows.delete(id);
      }
    }
  }

  /**
   * The change a pushed device row made since the previous push of it on this node: null when there
   * is no previous one (the whole row must go), UNCHANGED when no field differs. Computed on the first
   * call for a row object (the bus hands every socket the same object), so every socket that gets it
   * shares the change object and its encoded text.
   */
  changeOf(row: Row): Row | null {
    const known = this.changes.get(row);
    if (known !== undefined) return known;
    const id = String(row._id);
    const previous = this.lastRows.get(id);
    if (this.viewers.has(id)) this.lastRows.set(id, row);
    const change = previous ? (rowChange(previous, row) ?? UNCHANGED) : null;
    this.changes.set(row, change);
    return change;
  }

  /**
   * Keeps a domain message's device updates and deletes for `recentRowsMs` (once per message,
   * however many sockets of the node receive it). A page reads its rows and then names them as its
   * view; a change that came between went to no socket of it, and `recentFor` hands it over then.
   */
  remember(topic: string, message: ServerSocketMessage): void {
    if (message.type !== "devices" || message.action === "put" || this.remembered.has(message)) return;
    this.remembered.add(message);
    const now = Date.now();
    let rows = this.recent.get(topic);
    if (!rows) {
      rows = new Map();
      this.recent.set(topic, rows);
    }
    for (const item of message.content) {
      if (!isRow(item)) continue;
      const id = String(item._id);
      // Re-inserted, so the map stays in the order of the pushes and ages out from its head.
      rows.delete(id);
      rows.set(id, { item, action: message.action, at: now });
    }
    this.prune(topic, rows, now);
    if (now - this.lastSweep > this.limits.recentRowsMs) {
      this.lastSweep = now;
      for (const [other, otherRows] of this.recent) this.prune(other, otherRows, now);
    }
  }

  /**
   * The domain's device pushes of the last `recentRowsMs` for these ids (rows a view begins showing),
   * as the messages to offer its socket: updates carry whole rows, deletes the deleted items. Events
   * are not handed over so: a pushed event says "unread", and one its person read since would come
   * back unread to the events page; that page names its view as it begins to read, not after.
   */
  recentFor(topic: string, ids: Iterable<string>): ServerSocketMessage[] {
    const rows = this.recent.get(topic);
    if (!rows) return [];
    const since = Date.now() - this.limits.recentRowsMs;
    const updates: Row[] = [];
    const deletes: Row[] = [];
    for (const id of ids) {
      const recent = rows.get(id);
      if (!recent || recent.at < since) continue;
      (recent.action === "update" ? updates : deletes).push(recent.item);
    }
    const messages: ServerSocketMessage[] = [];
    if (updates.length > 0) messages.push({ type: "devices", action: "update", content: updates });
    if (deletes.length > 0) messages.push({ type: "devices", action: "delete", content: deletes });
    return messages;
  }

  private prune(topic: string, rows: Map<string, RecentRow>, now: number): void {
    const since = now - this.limits.recentRowsMs;
    for (const [id, recent] of rows) {
      if (recent.at >= since && rows.size <= this.limits.maxRecentRows) break;
      rows.delete(id);
    }
    if (rows.size === 0) this.recent.delete(topic);
  }

  /** @internal */
  markDirty(socket: Flushable): void {
    this.dirty.add(socket);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.limits.flushIntervalMs);
    this.timer.unref?.();
  }

  /** @internal */
  forget(socket: Flushable): void {
    this.dirty.delete(socket);
  }

  /** Sends every dirty socket its frames; frames with the same content are encoded once. */
  flush(): void {
    this.timer = null;
    const sockets = [...this.dirty];
    this.dirty.clear();
    for (const socket of sockets) socket.flush();
    this.frames = new Map();
    if (this.dirty.size > 0 && !this.timer) {
      this.timer = setTimeout(() => this.flush(), this.limits.flushIntervalMs);
      this.timer.unref?.();
    }
  }

  /**
   * A message's items by device id (`_id`, `device_id`, or `device._id` of an event), in order,
   * built once per content array for every socket that gets the message.
   */
  byDevice(content: readonly unknown[], field: "_id" | "device_id" | "device"): Map<string, Row[]> {
    let index = this.indexes.get(content);
    if (!index) {
      index = new Map();
      for (const item of content) {
        if (!isRow(item)) continue;
        const value = field === "device" ? (isRow(item.device) ? item.device._id : null) : item[field];
        if (value === null || value === undefined) continue;
        const id = String(value);
        const items = index.get(id);
        if (items) items.push(item);
        else index.set(id, [item]);
      }
      this.indexes.set(content, index);
    }
    return index;
  }

  /** The JSON text of one item, made once per item object. */
  fragment(item: object): string {
    let text = this.fragments.get(item);
    if (text === undefined) {
      text = JSON.stringify(item);
      this.fragments.set(item, text);
    }
    return text;
  }

  private fragmentId(item: object): number {
    let id = this.fragmentIds.get(item);
    if (id === undefined) {
      id = this.nextFragmentId++;
      this.fragmentIds.set(item, id);
    }
    return id;
  }

  /** The frame `{…head,"content":[items]}`, encoded once per flush for the same head and items. */
  frame(head: string, items: readonly object[]): Buffer {
    const key = `${head}|${items.map((item) => this.fragmentId(item)).join(",")}`;
    let frame = this.frames.get(key);
    if (!frame) {
      const content = items.map((item) => this.fragment(item)).join(",");
      frame = Buffer.from(`{${head},"content":[${content}]}`);
      this.framesEncoded += 1;
      this.frames.set(key, frame);
    }
    return frame;
  }

  /** The `reread` mark, one buffer for all. */
  readonly rereadFrame = Buffer.from(REREAD_FRAME_TEXT);
}
