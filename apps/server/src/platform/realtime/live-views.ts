import type { ServerSocketMessage, SocketView } from "@cellfleet/contract";

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
}

export const DEFAULT_LIVE_VIEW_LIMITS: LiveViewLimits = {
  flushIntervalMs: 250,
  highWaterBytes: 1024 * 1024,
  maxPendingChanges: 5000,
  maxBehindMs: 15_000,
};

/** Where a live socket writes: the parts of a `ws` WebSocket it needs. */
export interface FrameSink {
  readonly bufferedAmount: number;
  isOpen(): boolean;
  /** Writes one text frame; the buffer is shared with other sockets and must not be changed. */
  sendFrame(frame: Buffer): void;
}

type Row = Record<string, unknown>;

interface PendingDevice {
  /** The device as last pushed (whole). */
  row: Row;
  /** Its fields changed since the last frame this socket was sent, or null when the whole row must go. */
  change: Row | null;
}

interface Pending {
  updates: Map<string, PendingDevice>;
  puts: Map<string, Row>;
  deletes: Map<string, Row>;
  collects: Map<string, Row>;
  alerts: Row[];
  /** New events exist that this socket's views do not show (the unread badge re-reads its count). */
  hasOtherAlerts: boolean;
  totals: boolean;
}

function emptyPending(): Pending {
  return {
    updates: new Map(),
    puts: new Map(),
    deletes: new Map(),
    collects: new Map(),
    alerts: [],
    hasOtherAlerts: false,
    totals: false,
  };
}

function pendingSize(pending: Pending): number {
  return (
    pending.updates.size +
    pending.puts.size +
    pending.deletes.size +
    pending.collects.size +
    pending.alerts.length
  );
}

function isRow(value: unknown): value is Row {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The fields of `next` that differ from `previous` (with `_id`), a field gone as null; null when none differ. */
export function rowChange(previous: Row, next: Row): Row | null {
  const change: Row = { _id: next._id };
  let changed = false;
  for (const key of Object.keys(next)) {
    if (key === "_id" || sameValue(previous[key], next[key])) continue;
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
const UNCHANGED: Row = Object.freeze({});

const REREAD_FRAME_TEXT = JSON.stringify({ type: "reread" } satisfies ServerSocketMessage);

/**
 * One server node's live views: the rows last pushed for the devices some socket views (to
 * compute changes once per push, not per socket), the sockets with changes to flush, and the
 * frames encoded in the current flush.
 */
export class LiveViews {
  /** How many frames were encoded since start (each shared by every socket it went to). */
  framesEncoded = 0;
  private readonly viewers = new Map<string, number>();
  private readonly lastRows = new Map<string, Row>();
  /** The change each pushed row made, computed once for every socket that gets it. */
  private readonly changes = new WeakMap<Row, Row | null>();
  private readonly dirty = new Set<LiveSocket>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private frames = new Map<string, Buffer>();
  private readonly fragmentIds = new WeakMap<object, number>();
  private nextFragmentId = 1;
  private readonly fragments = new WeakMap<object, string>();
  private readonly indexes = new WeakMap<readonly unknown[], Map<string, Row[]>>();

  constructor(readonly limits: LiveViewLimits) {}

  /** A socket of this node; `views` null: a client of the first protocol, sent every push as is. */
  open(sink: FrameSink): LiveSocket {
    return new LiveSocket(this, sink);
  }

  /** Stops the flush timer (the server closes). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty.clear();
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

  /** @internal */
  markDirty(socket: LiveSocket): void {
    this.dirty.add(socket);
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.limits.flushIntervalMs);
    this.timer.unref?.();
  }

  /** @internal */
  forget(socket: LiveSocket): void {
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

/** One socket's views, pending changes and backpressure state. */
export class LiveSocket {
  /** Null until the client names its views: then every push of the domain goes out as is. */
  private views: SocketView[] | null = null;
  private listView = false;
  private eventsView = false;
  private viewed = new Set<string>();
  private pageDevices = new Set<string>();
  /** Devices whose whole row this socket was sent since it began viewing them. */
  private readonly hasRow = new Set<string>();
  private pending = emptyPending();
  private mustReread = false;
  private behindSince: number | null = null;

  constructor(
    private readonly hub: LiveViews,
    private readonly sink: FrameSink,
  ) {}

  /** How many changes wait for the next flush (bounded while the peer does not read). */
  get pendingChanges(): number {
    return pendingSize(this.pending);
  }

  /** Replaces the socket's views. */
  setViews(views: readonly SocketView[]): void {
    const viewed = new Set<string>();
    const pageDevices = new Set<string>();
    for (const view of views) {
      if (view.kind === "devices") for (const id of view.ids) viewed.add(id);
      if (view.kind === "device") {
        viewed.add(view.id);
        pageDevices.add(view.id);
      }
    }
    this.hub.watch(
      [...viewed].filter((id) => !this.viewed.has(id)),
      1,
    );
    this.hub.watch(
      [...this.viewed].filter((id) => !viewed.has(id)),
      -1,
    );
    for (const id of this.hasRow) if (!viewed.has(id)) this.hasRow.delete(id);
    for (const id of this.pending.updates.keys()) if (!viewed.has(id)) this.pending.updates.delete(id);
    this.views = [...views];
    this.viewed = viewed;
    this.pageDevices = pageDevices;
    this.listView = views.some((view) => view.kind === "devices");
    this.eventsView = views.some((view) => view.kind === "events");
  }

  /** The socket closed. */
  close(): void {
    this.hub.watch(this.viewed, -1);
    this.viewed = new Set();
    this.hub.forget(this);
  }

  /**
   * A domain message for this socket: the view kinds (devices, collects, alerts) are gathered for
   * the next flush; the others (and all, for a socket without views) are written now when the
   * socket keeps up, else dropped for a `reread`.
   */
  offer(message: ServerSocketMessage, encoded: () => Buffer): void {
    if (this.views !== null && this.gather(message)) {
      // A burst larger than the bound goes as a reread too, not as one frame without bound.
      if (pendingSize(this.pending) > this.hub.limits.maxPendingChanges) this.fallBehind();
      else if (pendingSize(this.pending) > 0 || this.pending.totals || this.pending.hasOtherAlerts)
        this.hub.markDirty(this);
      return;
    }
    if (this.isBehind()) {
      this.fallBehind();
      return;
    }
    this.sink.sendFrame(encoded());
  }

  /**
   * True when the message is of a view kind (gathered, or not relevant to this socket's views). A
   * socket looks its viewed devices up in the message's index (built once per message), so the cost
   * per socket follows what it views, not the size of the batch.
   */
  private gather(message: ServerSocketMessage): boolean {
    const pending = this.pending;
    if (message.type === "devices") {
      if (message.action === "put") {
        if (this.listView)
          for (const item of message.content) if (isRow(item)) pending.puts.set(String(item._id), item);
      } else {
        const index = this.hub.byDevice(message.content, "_id");
        for (const id of this.viewed) {
          for (const item of index.get(id) ?? []) {
            if (message.action === "update") this.gatherUpdate(id, item);
            else {
              pending.updates.delete(id);
              pending.deletes.set(id, item);
            }
          }
        }
      }
      if (this.listView) pending.totals = true;
      return true;
    }
    if (message.type === "collects") {
      const index = this.hub.byDevice(message.content, "device_id");
      for (const id of this.pageDevices)
        for (const item of index.get(id) ?? []) pending.collects.set(`${id}\u0000${String(item.type)}`, item);
      return true;
    }
    if (message.type === "alerts") {
      if (this.eventsView) {
        for (const item of message.content) if (isRow(item)) pending.alerts.push(item);
        return true;
      }
      const index = this.hub.byDevice(message.content, "device");
      let shown = 0;
      for (const id of this.viewed) {
        for (const item of index.get(id) ?? []) {
          pending.alerts.push(item);
          shown += 1;
        }
      }
      if (shown < message.content.length) pending.hasOtherAlerts = true;
      return true;
    }
    return false;
  }

  private gatherUpdate(id: string, row: Row): void {
    const change = this.hub.changeOf(row);
    const known = this.pending.updates.get(id);
    if (change === UNCHANGED) {
      // Nothing changed: no frame for it (one already waiting keeps its changes).
      if (known) known.row = row;
      return;
    }
    // Latest wins: the changes of pushes within one flush interval merge, the later field over the earlier.
    const merged =
      change === null || known?.change === null ? null : known ? { ...known.change, ...change } : change;
    this.pending.updates.set(id, { row, change: merged });
  }

  private isBehind(): boolean {
    return this.sink.bufferedAmount > this.hub.limits.highWaterBytes;
  }

  /** Pending changes are dropped: the client reads everything again once the socket drains. */
  private fallBehind(): void {
    this.mustReread = true;
    this.pending = emptyPending();
    this.hub.markDirty(this);
  }

  /** @internal Called by the hub once per flush interval while this socket has something to send. */
  flush(): void {
    if (!this.sink.isOpen()) return;
    const now = Date.now();
    if (this.isBehind()) {
      this.behindSince ??= now;
      const { maxPendingChanges, maxBehindMs } = this.hub.limits;
      if (pendingSize(this.pending) > maxPendingChanges || now - this.behindSince > maxBehindMs) {
        this.mustReread = true;
        this.pending = emptyPending();
      }
      this.hub.markDirty(this);
      return;
    }
    this.behindSince = null;
    if (this.mustReread) {
      this.mustReread = false;
      this.pending = emptyPending();
      this.hasRow.clear();
      this.sink.sendFrame(this.hub.rereadFrame);
      return;
    }
    const pending = this.pending;
    this.pending = emptyPending();
    for (const frame of this.framesOf(pending)) this.sink.sendFrame(frame);
  }

  private framesOf(pending: Pending): Buffer[] {
    const frames: Buffer[] = [];
    const hub = this.hub;
    if (pending.deletes.size > 0)
      frames.push(hub.frame(`"type":"devices","action":"delete"`, [...pending.deletes.values()]));
    if (pending.puts.size > 0)
      frames.push(hub.frame(`"type":"devices","action":"put"`, [...pending.puts.values()]));
    if (pending.updates.size > 0 || pending.totals) {
      const items: Row[] = [];
      for (const [id, entry] of pending.updates) {
        if (entry.change !== null && this.hasRow.has(id)) items.push(entry.change);
        else {
          items.push(entry.row);
          this.hasRow.add(id);
        }
      }
      const totals = pending.totals ? `,"totals":true` : "";
      frames.push(hub.frame(`"type":"devices","action":"update"${totals}`, items));
    }
    if (pending.collects.size > 0)
      frames.push(hub.frame(`"type":"collects"`, [...pending.collects.values()]));
    if (pending.alerts.length > 0 || pending.hasOtherAlerts)
      frames.push(hub.frame(`"type":"alerts"`, pending.alerts));
    return frames;
  }
}
