import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RealtimeClient, type SocketLike } from "./RealtimeClient";

class FakeSocket implements SocketLike {
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  sent: string[] = [];
  closed = false;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event("open"));
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
  drop(code: number) {
    this.onclose?.({ code } as CloseEvent);
  }
}

function setup({ random = () => 0.999_999 }: { random?: () => number } = {}) {
  const sockets: FakeSocket[] = [];
  const loading: boolean[] = [];
  const ended: string[] = [];
  /** Each `ready` handed on: how many sockets were made by then. */
  const ready: number[] = [];
  const rereads: number[] = [];
  const client = new RealtimeClient({
    random,
    onReady: () => ready.push(sockets.length),
    onReread: () => rereads.push(sockets.length),
    url: () => "ws://test/api/ws/",
    timeoutMs: 15_000,
    createSocket: () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    },
    setLoading: (on) => loading.push(on),
    onSessionEnded: (code) => ended.push(code),
  });
  return { client, sockets, loading, ended, ready, rereads };
}

describe("RealtimeClient", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends the token first and passes typed messages to subscribers", () => {
    const { client, sockets } = setup();
    const devices = vi.fn();
    client.subscribe("devices", devices);
    client.start("tok");
    sockets[0].open();
    // No screen has said what it shows yet: the hello names no views.
    expect(sockets[0].sent).toEqual([JSON.stringify({ token: "tok", views: [] })]);
    sockets[0].receive({ type: "ready", domain_id: "d1" });
    sockets[0].receive({ type: "devices", action: "update", content: [1] });
    sockets[0].receive({ type: "alerts", content: [] });
    expect(devices).toHaveBeenCalledTimes(1);
    expect(devices.mock.calls[0][0]).toMatchObject({ type: "devices", action: "update" });
  });

  it("reconnects with growing backoff after a drop, with the loading state on until ready", () => {
    const { client, sockets, loading } = setup();
    client.start("tok");
    sockets[0].drop(1006);
    expect(loading.at(-1)).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
    sockets[1].drop(1006);
    vi.advanceTimersByTime(1999);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(3);
    sockets[2].open();
    sockets[2].receive({ type: "ready", domain_id: null });
    expect(loading.at(-1)).toBe(false);
  });

  it("gives up an attempt that gets no answer within the socket timeout", () => {
    const { client, sockets } = setup();
    client.start("tok");
    sockets[0].open();
    vi.advanceTimersByTime(15_000);
    expect(sockets[0].closed).toBe(true);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(2);
  });

  it("ends the session on a session-ended message and stops reconnecting", () => {
    const { client, sockets, ended } = setup();
    client.start("tok");
    sockets[0].receive({ type: "session", state: "ended", code: "INACTIVITY_TIMEOUT" });
    expect(ended).toEqual(["INACTIVITY_TIMEOUT"]);
    sockets[0].drop(4001);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
    expect(client.isActive).toBe(false);
  });

  it("ends the session when the server rejects the token", () => {
    const { client, sockets, ended } = setup();
    client.start("tok");
    sockets[0].drop(4002);
    expect(ended).toEqual(["TOKEN_INVALID"]);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it("stops without reconnecting on logout", () => {
    const { client, sockets } = setup();
    client.start("tok");
    client.stop();
    sockets[0].drop(1000);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it("re-reads live data on every ready: the first connection's (pushes between a page's read and it) and a reconnect's", () => {
    const { client, sockets, ready } = setup();
    client.start("tok");
    sockets[0].open();
    expect(ready).toEqual([]);
    sockets[0].receive({ type: "ready", domain_id: "d1" });
    expect(ready).toEqual([1]);
    sockets[0].drop(1006);
    vi.advanceTimersByTime(1000);
    sockets[1].open();
    expect(ready).toEqual([1]);
    sockets[1].receive({ type: "ready", domain_id: "d1" });
    expect(ready).toEqual([1, 2]);
    // Another person's token: its first ready too.
    client.stop();
    client.start("tok2");
    sockets[2].open();
    sockets[2].receive({ type: "ready", domain_id: "d1" });
    expect(ready).toEqual([1, 2, 3]);
  });

  it("is live from ready until a drop, again after the reconnect's ready, and not after stop", () => {
    const { client, sockets } = setup();
    const changes: boolean[] = [];
    client.onLiveChange(() => changes.push(client.isLive));
    client.start("tok");
    sockets[0].open();
    expect(client.isLive).toBe(false);
    sockets[0].receive({ type: "ready", domain_id: null });
    expect(client.isLive).toBe(true);
    sockets[0].drop(1006);
    expect(client.isLive).toBe(false);
    vi.advanceTimersByTime(1000);
    sockets[1].open();
    sockets[1].receive({ type: "ready", domain_id: null });
    client.stop();
    expect(changes).toEqual([true, false, true, false]);
  });

  it("spreads the backoff between half and all of each step (jitter)", () => {
    const { client, sockets } = setup({ random: () => 0 });
    client.start("tok");
    sockets[0].drop(1006);
    vi.advanceTimersByTime(499);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1].drop(1006);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(3);
  });

  it("sends the screens' views in the hello, and again after ready when they change", () => {
    const { client, sockets } = setup();
    const list = {};
    const page = {};
    client.setView(list, { kind: "devices", ids: ["a", "b"] });
    client.start("tok");
    sockets[0].open();
    expect(sockets[0].sent).toEqual([
      JSON.stringify({ token: "tok", views: [{ kind: "devices", ids: ["a", "b"] }] }),
    ]);
    // Changed while the token is checked: sent once the socket is ready.
    client.setView(list, { kind: "devices", ids: ["c"] });
    expect(sockets[0].sent).toHaveLength(1);
    sockets[0].receive({ type: "ready", domain_id: "d1" });
    expect(sockets[0].sent.slice(1)).toEqual([
      JSON.stringify({ type: "view", views: [{ kind: "devices", ids: ["c"] }] }),
    ]);
    client.setView(page, { kind: "device", id: "c" });
    // The same views again: nothing sent.
    client.setView(page, { kind: "device", id: "c" });
    client.setView(list, null);
    expect(sockets[0].sent.slice(2)).toEqual([
      JSON.stringify({
        type: "view",
        views: [
          { kind: "devices", ids: ["c"] },
          { kind: "device", id: "c" },
        ],
      }),
      JSON.stringify({ type: "view", views: [{ kind: "device", id: "c" }] }),
    ]);
    // A new connection names the views in its hello.
    sockets[0].drop(1006);
    vi.advanceTimersByTime(1000);
    sockets[1].open();
    expect(sockets[1].sent).toEqual([JSON.stringify({ token: "tok", views: [{ kind: "device", id: "c" }] })]);
  });

  it("re-reads what is on screen on a reread mark", () => {
    const { client, sockets, rereads } = setup();
    const marks = vi.fn();
    client.subscribe("reread", marks);
    client.start("tok");
    sockets[0].open();
    sockets[0].receive({ type: "ready", domain_id: "d1" });
    expect(rereads).toEqual([]);
    sockets[0].receive({ type: "reread" });
    expect(rereads).toEqual([1]);
    expect(marks).toHaveBeenCalledTimes(1);
  });
});
