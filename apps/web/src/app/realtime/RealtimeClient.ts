import { SOCKET_CLOSE, type SocketMessageType, type SocketView } from "@cellfleet/contract";

/** A message from the socket: a known type of the contract, or any other type passed on as is. */
export interface RealtimeMessage {
  type: SocketMessageType | (string & {});
  [field: string]: unknown;
}

export type RealtimeHandler = (message: RealtimeMessage) => void;

/** The parts of a WebSocket the client uses, so tests can hand in a fake one. */
export interface SocketLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  /** 0 while connecting, as on a WebSocket. */
  readonly readyState?: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const CONNECTING = 0;

/** Closes a socket without firing its handlers; one still connecting is closed once it opens. */
function discard(socket: SocketLike): void {
  socket.onmessage = null;
  socket.onerror = null;
  socket.onclose = null;
  if (socket.readyState === CONNECTING) socket.onopen = () => socket.close(1000, "client stop");
  else {
    socket.onopen = null;
    socket.close(1000, "client stop");
  }
}

export interface RealtimeDeps {
  url: () => string;
  createSocket?: (url: string) => SocketLike;
  /** The server ended the session (a `session` message, or a close that says the token is dead). */
  onSessionEnded: (code: string) => void;
  /** The global loading state, on while reconnecting after an error. */
  setLoading: (on: boolean) => void;
  /** How long one attempt may wait for `ready` before it is dropped (spec section 9: 15 s). */
  timeoutMs: number;
  maxBackoffMs?: number;
  /**
   * Called on every `ready`: what was pushed before it never reached this tab (while the socket was
   * down, and on the first connection between a page's read and this `ready`), so live data read
   * before it is read again.
   */
  onReady?: () => void;
  /** Called on a `reread` mark: the server dropped changes this tab was too slow to take, so live data is re-read. */
  onReread?: () => void;
  /** A number in [0, 1) for the backoff's jitter (Math.random; tests pass their own). */
  random?: () => number;
}

const FIRST_BACKOFF_MS = 1000;

/**
 * The realtime socket of spec section 7: sends the token first, passes typed messages to
 * subscribers, and reconnects with backoff after an error or a close it did not ask for.
 */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private token: string | null = null;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private readyTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly handlers = new Map<string, Set<RealtimeHandler>>();
  /** A socket said `ready` and has not gone since: pushes arrive. */
  private live = false;
  private readonly liveListeners = new Set<() => void>();
  /** What the open screens show, by the component that shows it (ADR 035). */
  private readonly views = new Map<object, SocketView>();
  /** The views last sent on the current socket, as JSON, so an unchanged set is not sent again. */
  private sentViews: string | null = null;

  constructor(private readonly deps: RealtimeDeps) {}

  /**
   * Says what a screen shows (null: nothing any more), so the server sends changes of that only.
   * The socket is told at once when it is ready, and in the hello of every new connection.
   */
  setView(owner: object, view: SocketView | null): void {
    if (view) this.views.set(owner, view);
    else this.views.delete(owner);
    this.sendViews();
  }

  private currentViews(): SocketView[] {
    return [...this.views.values()];
  }

  private sendViews(): void {
    if (!this.socket || !this.live) return;
    const views = this.currentViews();
    const text = JSON.stringify(views);
    if (text === this.sentViews) return;
    this.sentViews = text;
    this.socket.send(JSON.stringify({ type: "view", views }));
  }

  /** Connects with this token; a call with the token already in use does nothing. */
  start(token: string): void {
    if (this.token === token && this.socket) return;
    this.stop();
    this.token = token;
    this.open();
  }

  /** Closes the socket and stops reconnecting (logout). */
  stop(): void {
    this.token = null;
    this.attempt = 0;
    this.setLive(false);
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (socket) discard(socket);
    this.deps.setLoading(false);
  }

  subscribe(type: string, handler: RealtimeHandler): () => void {
    let set = this.handlers.get(type);
    if (!set) {
      set = new Set();
      this.handlers.set(type, set);
    }
    set.add(handler);
    return () => set.delete(handler);
  }

  get isActive(): boolean {
    return this.token !== null;
  }

  /** Whether pushes arrive now: false before the first `ready` and while reconnecting (screens poll then). */
  get isLive(): boolean {
    return this.live;
  }

  /** Calls `listener` when `isLive` changes; returns the unsubscribe function. */
  onLiveChange(listener: () => void): () => void {
    this.liveListeners.add(listener);
    return () => this.liveListeners.delete(listener);
  }

  private setLive(on: boolean): void {
    if (this.live === on) return;
    this.live = on;
    for (const listener of [...this.liveListeners]) listener();
  }

  private clearTimers(): void {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.readyTimer) clearTimeout(this.readyTimer);
    this.reconnectTimer = null;
    this.readyTimer = null;
  }

  private open(): void {
    const token = this.token;
    if (!token) return;
    const create = this.deps.createSocket ?? ((url: string) => new WebSocket(url));
    const socket = create(this.deps.url());
    this.socket = socket;
    this.readyTimer = setTimeout(() => this.retry(socket, true), this.deps.timeoutMs);
    socket.onopen = () => {
      const views = this.currentViews();
      this.sentViews = JSON.stringify(views);
      socket.send(JSON.stringify({ token, views }));
    };
    socket.onmessage = (event) => this.receive(socket, event);
    socket.onerror = () => {
      if (socket === this.socket) this.deps.setLoading(true);
    };
    socket.onclose = (event) => this.closed(socket, event);
  }

  private receive(socket: SocketLike, event: MessageEvent): void {
    if (socket !== this.socket) return;
    let message: RealtimeMessage;
    try {
      message = JSON.parse(String(event.data)) as RealtimeMessage;
    } catch {
      return;
    }
    if (typeof message?.type !== "string") return;
    if (message.type === "ready") {
      this.attempt = 0;
      if (this.readyTimer) clearTimeout(this.readyTimer);
      this.readyTimer = null;
      this.deps.setLoading(false);
      this.setLive(true);
      this.deps.onReady?.();
      // Screens that changed while the server checked the token.
      this.sendViews();
    }
    if (message.type === "reread") this.deps.onReread?.();
    if (message.type === "session" && message.state === "ended") {
      const code = typeof message.code === "string" ? message.code : "TOKEN_INVALID";
      this.stop();
      this.deps.onSessionEnded(code);
      return;
    }
    for (const handler of this.handlers.get(message.type) ?? []) handler(message);
  }

  private closed(socket: SocketLike, event: CloseEvent): void {
    if (socket !== this.socket) return;
    if (event.code === SOCKET_CLOSE.sessionEnded || event.code === SOCKET_CLOSE.tokenRejected) {
      this.stop();
      this.deps.onSessionEnded(
        event.code === SOCKET_CLOSE.tokenRejected ? "TOKEN_INVALID" : "TOKEN_HAS_EXPIRED",
      );
      return;
    }
    this.retry(socket, event.code !== 1000);
  }

  /**
   * Drops this attempt and schedules the next one: 1 s, 2 s, 4 s … up to the cap, each taken at
   * random between half and all of it, so tabs dropped together by a server restart do not all
   * come back in the same instant.
   */
  private retry(socket: SocketLike, afterError: boolean): void {
    if (socket !== this.socket || !this.token) return;
    this.socket = null;
    this.setLive(false);
    this.clearTimers();
    discard(socket);
    if (afterError) this.deps.setLoading(true);
    const ceiling = Math.min(FIRST_BACKOFF_MS * 2 ** this.attempt, this.deps.maxBackoffMs ?? 30_000);
    const delay = Math.round(ceiling * (0.5 + 0.5 * (this.deps.random ?? Math.random)()));
    this.attempt += 1;
    this.reconnectTimer = setTimeout(() => this.open(), delay);
  }
}
