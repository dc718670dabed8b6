import type { ServerSocketMessage, SocketView } from "@cellfleet/contract";
import { type FrameSink, isRow, type LiveViews, type Row, UNCHANGED } from "./live-views";

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
  hasTotalsChanged: boolean;
}

function emptyPending(): Pending {
  return {
    updates: new Map(),
    puts: new Map(),
    deletes: new Map(),
    collects: new Map(),
    alerts: [],
    hasOtherAlerts: false,
    hasTotalsChanged: false,
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

/** One socket's views, pending changes and backpressure state (ADR 035). */
export class LiveSocket {
  /** Null until the client names its views: then every push of the domain goes out as is. */
  private views: SocketView[] | null = null;
  private hasListView = false;
  private hasEventsView = false;
  private viewed = new Set<string>();
  private pageDevices = new Set<string>();
  /** Devices whose whole row this socket was sent since it began viewing them. */
  private readonly hasRow = new Set<string>();
  private pending = emptyPending();
  private shouldReread = false;
  private behindSince: number | null = null;

  constructor(
    private readonly hub: LiveViews,
    private readonly sink: FrameSink,
  ) {}

  /** How many changes wait for the next flush (bounded while the peer does not read). */
  get pendingChanges(): number {
    return pendingSize(this.pending);
  }

  /** Replaces the socket's views; answers the devices it did not view before. */
  setViews(views: readonly SocketView[]): string[] {
    const viewed = new Set<string>();
    const pageDevices = new Set<string>();
    for (const view of views) {
      if (view.kind === "devices") for (const id of view.ids) viewed.add(id);
      if (view.kind === "device") {
        viewed.add(view.id);
        pageDevices.add(view.id);
      }
    }
    const added = [...viewed].filter((id) => !this.viewed.has(id));
    this.hub.watch(added, 1);
    this.hub.watch(
      [...this.viewed].filter((id) => !viewed.has(id)),
      -1,
    );
    for (const id of this.hasRow) if (!viewed.has(id)) this.hasRow.delete(id);
    for (const id of this.pending.updates.keys()) if (!viewed.has(id)) this.pending.updates.delete(id);
    this.views = [...views];
    this.viewed = viewed;
    this.pageDevices = pageDevices;
    this.hasListView = views.some((view) => view.kind === "devices");
    this.hasEventsView = views.some((view) => view.kind === "events");
    return added;
  }

  /** The socket closed. */
  close(): void {
    this.hub.watch(this.viewed, -1);
    this.viewed = new Set();
    this.hub.forget(this);
  }

  /** Whether this socket's views show the router (a row of its list, or its page). */
  isShowing(deviceId: string): boolean {
    return this.viewed.has(deviceId);
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
      else if (pendingSize(this.pending) > 0 || this.pending.hasTotalsChanged || this.pending.hasOtherAlerts)
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
        if (this.hasListView)
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
      if (this.hasListView) pending.hasTotalsChanged = true;
      return true;
    }
    if (message.type === "collects") {
      const index = this.hub.byDevice(message.content, "device_id");
      for (const id of this.pageDevices)
        for (const item of index.get(id) ?? []) pending.collects.set(`${id}\u0000${String(item.type)}`, item);
      return true;
    }
    if (message.type === "alerts") {
      if (this.hasEventsView) {
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
    if (change === UNCHANGED && this.hasRow.has(id)) {
      // Nothing changed: no frame for it (one already waiting keeps its changes).
      if (known) known.row = row;
      return;
    }
    // A row this socket was not sent since it began viewing it goes whole, changed or not: its page
    // may have read it before a change this node pushed while no view of the socket showed it.
    if (change === UNCHANGED) {
      this.pending.updates.set(id, { row, change: null });
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
    this.shouldReread = true;
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
        this.shouldReread = true;
        this.pending = emptyPending();
      }
      this.hub.markDirty(this);
      return;
    }
    this.behindSince = null;
    if (this.shouldReread) {
      this.shouldReread = false;
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
    if (pending.updates.size > 0 || pending.hasTotalsChanged) {
      const items: Row[] = [];
      for (const [id, entry] of pending.updates) {
        if (entry.change !== null && this.hasRow.has(id)) items.push(entry.change);
        else {
          items.push(entry.row);
          this.hasRow.add(id);
        }
      }
      const totals = pending.hasTotalsChanged ? `,"totals":true` : "";
      frames.push(hub.frame(`"type":"devices","action":"update"${totals}`, items));
    }
    if (pending.collects.size > 0)
      frames.push(hub.frame(`"type":"collects"`, [...pending.collects.values()]));
    if (pending.alerts.length > 0 || pending.hasOtherAlerts)
      frames.push(hub.frame(`"type":"alerts"`, pending.alerts));
    return frames;
  }
}
