import type { ServerSocketMessage } from "@cellfleet/contract";
import { describe, expect, it, vi } from "vitest";
import { LiveSocket } from "./live-socket";
import { DEFAULT_LIVE_VIEW_LIMITS, type FrameSink, LiveViews, rowChange } from "./live-views";

const open = (views: LiveViews, sink: FrameSink) => new LiveSocket(views, sink);

/** A sink that records frames; `bufferedAmount` is set by the test (a peer that does not read). */
function fakeSink() {
  const frames: Buffer[] = [];
  const sink: FrameSink & { bufferedAmount: number; frames: Buffer[]; messages(): unknown[] } = {
    bufferedAmount: 0,
    frames,
    isOpen: () => true,
    sendFrame: (frame) => {
      frames.push(frame);
    },
    messages: () => frames.splice(0).map((frame) => JSON.parse(frame.toString())),
  };
  return sink;
}

const device = (id: string, fields: Record<string, unknown> = {}) => ({
  _id: id,
  ident: `r-${id}`,
  status: "online",
  last_contact: 1,
  ...fields,
});
const updates = (...content: object[]): ServerSocketMessage => ({
  type: "devices",
  action: "update",
  content,
});
const wholeFrame = () => Buffer.from("whole");

/** What the bus does: one (cloned) object handed to every socket's handler. */
function publish(views: LiveViews, sockets: LiveSocket[], message: ServerSocketMessage) {
  const copy = structuredClone(message);
  for (const socket of sockets) socket.offer(copy, wholeFrame);
  void views;
}

describe("LiveViews", () => {
  it("sends a device page's socket its device only, and nothing for another device's report", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sink = fakeSink();
    const socket = open(views, sink);
    socket.setViews([{ kind: "device", id: "a" }]);
    publish(views, [socket], updates(device("b", { last_contact: 5 })));
    publish(views, [socket], {
      type: "collects",
      content: [{ device_id: "b", type: "modems", data: {} }],
    });
    views.flush();
    expect(sink.frames).toHaveLength(0);
    publish(views, [socket], updates(device("a"), device("b")));
    publish(views, [socket], { type: "collects", content: [{ device_id: "a", type: "modems", data: 1 }] });
    views.flush();
    expect(sink.messages()).toEqual([
      { type: "devices", action: "update", content: [device("a")] },
      { type: "collects", content: [{ device_id: "a", type: "modems", data: 1 }] },
    ]);
    views.close();
  });

  it("sends a list socket its visible rows and a totals mark for the others", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sink = fakeSink();
    const socket = open(views, sink);
    socket.setViews([{ kind: "devices", ids: ["a", "b"] }]);
    publish(views, [socket], updates(device("c"), device("d")));
    views.flush();
    expect(sink.messages()).toEqual([{ type: "devices", action: "update", totals: true, content: [] }]);
    publish(views, [socket], updates(device("b"), device("c")));
    views.flush();
    expect(sink.messages()).toEqual([
      { type: "devices", action: "update", totals: true, content: [device("b")] },
    ]);
    // The list page moved on: b is no longer visible.
    socket.setViews([{ kind: "devices", ids: ["c"] }]);
    publish(views, [socket], updates(device("b", { status: "critical" })));
    views.flush();
    expect(sink.messages()).toEqual([{ type: "devices", action: "update", totals: true, content: [] }]);
    views.close();
  });

  it("coalesces many pushes of one device within the window into one frame with the latest", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sink = fakeSink();
    const socket = open(views, sink);
    socket.setViews([{ kind: "device", id: "a" }]);
    publish(views, [socket], updates(device("a")));
    views.flush();
    expect(sink.messages()).toHaveLength(1);
    for (let n = 2; n <= 50; n += 1) {
      publish(views, [socket], updates(device("a", { last_contact: n })));
      publish(views, [socket], {
        type: "collects",
        content: [{ device_id: "a", type: "modems", seq: n }],
      });
    }
    publish(views, [socket], updates(device("a", { last_contact: 50, status: "warning" })));
    views.flush();
    // Only the changed fields, merged latest-wins, and the latest collect of the type.
    expect(sink.messages()).toEqual([
      { type: "devices", action: "update", content: [{ _id: "a", last_contact: 50, status: "warning" }] },
      { type: "collects", content: [{ device_id: "a", type: "modems", seq: 50 }] },
    ]);
    // The same row again changes nothing: no frame.
    publish(views, [socket], updates(device("a", { last_contact: 50, status: "warning" })));
    views.flush();
    expect(sink.frames).toHaveLength(0);
    views.close();
  });

  it("encodes a frame once for all the sockets that get the same frame", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sinks = Array.from({ length: 50 }, fakeSink);
    const sockets = sinks.map((sink) => open(views, sink));
    for (const socket of sockets) socket.setViews([{ kind: "devices", ids: ["a", "b"] }]);
    publish(views, sockets, updates(device("a"), device("b"), device("c")));
    const before = views.framesEncoded;
    views.flush();
    expect(views.framesEncoded - before).toBe(1);
    const first = sinks[0]?.frames[0];
    expect(first).toBeDefined();
    for (const sink of sinks) expect(sink.frames[0]).toBe(first);
    views.close();
  });

  it("keeps the latest change per device while the peer does not read, then sends it", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sink = fakeSink();
    const socket = open(views, sink);
    socket.setViews([{ kind: "device", id: "a" }]);
    publish(views, [socket], updates(device("a")));
    views.flush();
    sink.messages();
    sink.bufferedAmount = DEFAULT_LIVE_VIEW_LIMITS.highWaterBytes + 1;
    for (let n = 2; n <= 1000; n += 1) {
      publish(views, [socket], updates(device("a", { last_contact: n })));
      views.flush();
    }
    expect(sink.frames).toHaveLength(0);
    sink.bufferedAmount = 0;
    views.flush();
    expect(sink.messages()).toEqual([
      { type: "devices", action: "update", content: [{ _id: "a", last_contact: 1000 }] },
    ]);
    views.close();
  });

  it("sends a socket that falls behind past the bound one reread mark, holding at most the bound", () => {
    const limits = { ...DEFAULT_LIVE_VIEW_LIMITS, maxPendingChanges: 100 };
    const views = new LiveViews(limits);
    const sink = fakeSink();
    const socket = open(views, sink);
    socket.setViews([{ kind: "events" }]);
    sink.bufferedAmount = limits.highWaterBytes + 1;
    for (let n = 0; n < 10_000; n += 1) {
      publish(views, [socket], { type: "alerts", content: [{ _id: `e${n}`, device: null }] });
      // Other kinds go out at once when the socket keeps up; now they are dropped, not queued.
      if (n % 1000 === 999) publish(views, [socket], { type: "notifications", content: [{ n }] });
      if (n % 10 === 0) views.flush();
      expect(socket.pendingChanges).toBeLessThanOrEqual(limits.maxPendingChanges + 10);
    }
    expect(sink.frames).toHaveLength(0);
    sink.bufferedAmount = 0;
    views.flush();
    expect(sink.messages()).toEqual([{ type: "reread" }]);
    // Back in step: the next change goes out as usual.
    publish(views, [socket], { type: "alerts", content: [{ _id: "late", device: null }] });
    views.flush();
    expect(sink.messages()).toEqual([{ type: "alerts", content: [{ _id: "late", device: null }] }]);
    views.close();
  });

  it("sends the events page every event, a device page its device's, and other pages an empty mark", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sinks = [fakeSink(), fakeSink(), fakeSink()];
    const [events, page, other] = sinks.map((sink) => open(views, sink));
    events?.setViews([{ kind: "events" }]);
    page?.setViews([{ kind: "device", id: "a" }]);
    other?.setViews([]);
    const onA = { _id: "e1", device: { _id: "a", ident: "r-a" } };
    const onB = { _id: "e2", device: { _id: "b", ident: "r-b" } };
    const sockets = [events, page, other].filter((socket) => socket !== undefined);
    publish(views, sockets, { type: "alerts", content: [onA, onB] });
    views.flush();
    expect(sinks.map((sink) => sink.messages())).toEqual([
      [{ type: "alerts", content: [onA, onB] }],
      [{ type: "alerts", content: [onA] }],
      [{ type: "alerts", content: [] }],
    ]);
    // A page that shows no devices gets no device pushes at all.
    publish(views, sockets, updates(device("a")));
    views.flush();
    expect(sinks[2]?.frames).toHaveLength(0);
    views.close();
  });

  it("sends a socket without views every message whole at once (a client of the first protocol)", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const sink = fakeSink();
    const socket = open(views, sink);
    publish(views, [socket], updates(device("a")));
    expect(sink.frames.map(String)).toEqual(["whole"]);
    views.close();
  });
});

describe("rows pushed before a view names them (ADR 035 item 8)", () => {
  it("keeps each domain's latest push of a device for recentRowsMs, at most maxRecentRows of them", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      const views = new LiveViews({ ...DEFAULT_LIVE_VIEW_LIMITS, recentRowsMs: 1000, maxRecentRows: 3 });
      vi.setSystemTime(0);
      views.remember("domain-1", updates(device("a"), device("b")));
      vi.setSystemTime(600);
      views.remember("domain-1", updates(device("a", { status: "critical" })));
      views.remember("domain-1", { type: "devices", action: "delete", content: [{ _id: "x" }] });
      expect(views.recentFor("domain-1", ["a", "b", "x", "never"])).toEqual([
        updates(device("a", { status: "critical" }), device("b")),
        { type: "devices", action: "delete", content: [{ _id: "x" }] },
      ]);
      expect(views.recentFor("domain-2", ["a", "b"])).toEqual([]);
      // b was pushed 1.2 s ago: gone; a and x 0.6 s ago: kept.
      vi.setSystemTime(1200);
      expect(views.recentFor("domain-1", ["a", "b"])).toEqual([updates(device("a", { status: "critical" }))]);
      // Three more: the bound of three keeps the latest three.
      views.remember("domain-1", updates(device("c"), device("d"), device("e")));
      expect(views.recentFor("domain-1", ["a", "x", "c", "d", "e"])).toEqual([
        updates(device("c"), device("d"), device("e")),
      ]);
      views.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends a socket that begins viewing a device its row whole, even when the push changed no field", () => {
    const views = new LiveViews(DEFAULT_LIVE_VIEW_LIMITS);
    const [firstSink, laterSink] = [fakeSink(), fakeSink()];
    const first = open(views, firstSink);
    const later = open(views, laterSink);
    first.setViews([{ kind: "device", id: "a" }]);
    later.setViews([]);
    publish(views, [first, later], updates(device("a", { status: "critical" })));
    // The same row again: no field changed, and the first socket is sent nothing more.
    const again = updates(device("a", { status: "critical" }));
    views.remember("domain", again);
    publish(views, [first, later], again);
    views.flush();
    expect(firstSink.messages()).toEqual([updates(device("a", { status: "critical" }))]);
    // The later socket read the row before the change and names it now: it is sent the row whole.
    const added = later.setViews([{ kind: "device", id: "a" }]);
    expect(added).toEqual(["a"]);
    for (const message of views.recentFor("domain", added)) later.offer(message, wholeFrame);
    views.flush();
    expect(laterSink.messages()).toEqual([updates(device("a", { status: "critical" }))]);
    expect(firstSink.frames).toHaveLength(0);
    views.close();
  });
});

describe("rowChange", () => {
  it("answers the changed fields with _id, a field gone as null, and null when nothing changed", () => {
    expect(rowChange({ _id: "a", x: 1, tags: ["t"] }, { _id: "a", x: 1, tags: ["t"] })).toBeNull();
    expect(rowChange({ _id: "a", x: 1, y: 2, tags: ["t"] }, { _id: "a", x: 3, tags: ["u"] })).toEqual({
      _id: "a",
      x: 3,
      tags: ["u"],
      y: null,
    });
  });
});
