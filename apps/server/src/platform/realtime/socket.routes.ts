import {
  can,
  type ErrorCode,
  type PermissionAction,
  type ServerSocketMessage,
  ServerSocketMessageSchema,
  SOCKET_CLOSE,
  SocketHelloSchema,
  type SocketMessageType,
  type SocketView,
  SocketViewMessageSchema,
} from "@cellfleet/contract";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { RawData, WebSocket } from "ws";
import { subjectOf, tagScopeOf } from "../auth/permissions";
import type { SessionContext, SessionResolver } from "../auth/session-guard";
import { type Bus, domainTopic, SUPERUSERS_TOPIC, sessionTopic } from "../bus/bus";
import { AppError } from "../errors";
import { LiveSocket } from "./live-socket";
import { DEFAULT_LIVE_VIEW_LIMITS, type LiveViewLimits, LiveViews } from "./live-views";
import { TagScopedFeed, type TagScopeReader } from "./tag-scoped-feed";

/** Timings and bounds of the realtime socket; tests shorten them. */
export interface RealtimeTimings extends LiveViewLimits {
  /** The client must send `{ token }` within this time (close 4003). */
  helloTimeoutMs: number;
  /** Ping frames this often; a connection that did not answer the previous one is terminated. */
  pingIntervalMs: number;
  /** The session is checked again this often, so expiry and inactivity close the socket too. */
  recheckIntervalMs: number;
}

export const DEFAULT_REALTIME_TIMINGS: RealtimeTimings = {
  helloTimeoutMs: 10_000,
  pingIntervalMs: 30_000,
  recheckIntervalMs: 60_000,
  ...DEFAULT_LIVE_VIEW_LIMITS,
};

export interface RealtimeOptions {
  resolveSession: SessionResolver;
  bus: Bus;
  timings: RealtimeTimings;
  /** What a tag-limited socket reads of its scope (ADR 041). */
  scopeReader: TagScopeReader;
}

function parseJson(data: RawData): unknown {
  try {
    return JSON.parse(data.toString());
  } catch {
    return null;
  }
}

/**
 * The hello's token and views: no `views` is a client of the first protocol (every push of the
 * domain); views that are not valid (too many ids) are taken as none rather than refusing the token.
 */
function parseHello(data: RawData): { token: string | null; views: SocketView[] | null } {
  const hello = parseJson(data);
  const token = SocketHelloSchema.shape.token.safeParse((hello as { token?: unknown } | null)?.token);
  if (!token.success) return { token: null, views: null };
  const rawViews = (hello as { views?: unknown }).views;
  if (rawViews === undefined) return { token: token.data, views: null };
  const views = SocketHelloSchema.shape.views.safeParse(rawViews);
  return { token: token.data, views: views.success ? (views.data ?? []) : [] };
}

/**
 * A bus message as a domain message, validated once however many sockets receive it, since the
 * bus hands all its subscribers the same object. Null for what is not a valid domain message.
 */
const domainMessages = new WeakMap<object, ServerSocketMessage | null>();
export function domainMessageOf(message: unknown): ServerSocketMessage | null {
  if (typeof message !== "object" || message === null) return null;
  const known = domainMessages.get(message);
  if (known !== undefined) return known;
  const parsed = ServerSocketMessageSchema.safeParse(message);
  // The original object, not zod's copy: its items are the objects per-item caches key on.
  const valid = parsed.success && parsed.data.type !== "session" ? (message as ServerSocketMessage) : null;
  domainMessages.set(message, valid);
  return valid;
}

/**
 * The frame a domain message goes out as to sockets that get it whole (clients without views, and
 * the kinds views do not filter): serialised and encoded once for all of them. A batch of ingest
 * pushes up to a thousand devices at once, 1–1.7 ms to validate and serialise; done per socket, 32
 * open dashboards at ten batches a second would take 40% of a core.
 */
const domainFrames = new WeakMap<object, Buffer>();
export function domainMessageFrame(message: ServerSocketMessage): Buffer {
  let frame = domainFrames.get(message);
  if (!frame) {
    frame = Buffer.from(JSON.stringify(message));
    domainFrames.set(message, frame);
  }
  return frame;
}

/**
 * Messages only those whose role has the action in the permission table receive, whatever topic
 * brings them: in-app notifications need the notification plugin (spec section 6), software rules
 * and rollouts are root's screens.
 */
const MESSAGE_PERMISSIONS: Readonly<Partial<Record<SocketMessageType, PermissionAction>>> = {
  notifications: "notifications.view",
  software: "software.view",
};

function isSessionEnded(message: unknown): message is Extract<ServerSocketMessage, { type: "session" }> {
  const parsed = ServerSocketMessageSchema.safeParse(message);
  return parsed.success && parsed.data.type === "session";
}

/** One client connection: hello → ready → forwarding, until the session ends or the client leaves. */
function serveConnection(
  socket: WebSocket,
  options: RealtimeOptions,
  live: LiveViews,
  log: FastifyBaseLogger,
): void {
  const { bus, resolveSession, timings } = options;
  let phase: "hello" | "checking" | "ready" | "closed" = "hello";
  let isAlive = true;
  let session: SessionContext | null = null;
  let unsubscribeDomain: (() => void) | null = null;
  /** The topic of the domain's messages once subscribed (the recent rows a new view is sent are its). */
  let subscribedTopic: string | null = null;
  let unsubscribeSession: (() => void) | null = null;
  /** A tag-limited session's feed (ADR 041); null while the session sees the whole domain. */
  let scopedFeed: TagScopedFeed | null = null;

  const view = new LiveSocket(live, {
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    isOpen: () => socket.readyState === socket.OPEN,
    sendFrame: (frame) => {
      if (socket.readyState !== socket.OPEN) return;
      live.bytesSent += frame.length;
      socket.send(frame, { binary: false });
    },
  });
  const send = (message: ServerSocketMessage) => {
    if (socket.readyState !== socket.OPEN) return;
    const text = JSON.stringify(message);
    live.bytesSent += Buffer.byteLength(text);
    socket.send(text);
  };
  live.openSockets += 1;
  const endWith = (code: ErrorCode | string, closeCode: number) => {
    if (phase === "closed") return;
    send({ type: "session", state: "ended", code });
    phase = "closed";
    socket.close(closeCode, code);
  };

  const subscribeDomainIfAllowed = (current: SessionContext) => {
    // While the factory password is unchanged, or a second factor the policy asks for is not enrolled,
    // the user may see nothing of the domain (spec section 2, ADR 039); the re-check subscribes later.
    if (unsubscribeDomain || current.user.factory_password || current.isSecondFactorPending) return;
    // Superusers belong to no domain; their topic carries their notifications and the software screens' news.
    const topic = current.domainId === null ? SUPERUSERS_TOPIC : domainTopic(current.domainId);
    subscribedTopic = topic;
    unsubscribeDomain = bus.subscribe(topic, (message) => {
      const valid = domainMessageOf(message);
      if (valid === null) {
        log.warn({ topic }, "dropped a malformed realtime message");
        return;
      }
      live.remember(topic, valid);
      const action = MESSAGE_PERMISSIONS[valid.type];
      if (action && !(session && can(subjectOf(session), action))) return;
      if (phase !== "ready" || !session) return;
      offerDomainMessage(valid);
    });
  };

  const offerDomainMessage = (message: ServerSocketMessage) => {
    // A person limited to tags gets only their routers (ADR 041), the scope as of the last re-check.
    if (scopedFeed) scopedFeed.offer(message);
    else view.offer(message, () => domainMessageFrame(message));
  };

  /**
   * The socket's views now; the rows it begins showing that changed lately are sent to it, whole
   * (ADR 035 item 8): the page read them before naming its view, and a change made in between went
   * to no view of this socket. They pass the same tag scope as every push.
   */
  const showViews = (views: readonly SocketView[]) => {
    const added = view.setViews(views);
    if (phase !== "ready" || subscribedTopic === null) return;
    for (const message of live.recentFor(subscribedTopic, added)) offerDomainMessage(message);
  };

  /** Starts, refreshes or ends the tag-limited feed as the session's scope now is. */
  const followTagScope = (current: SessionContext) => {
    const scope = tagScopeOf(current);
    if (scope.length === 0 || current.domainId === null) {
      scopedFeed = null;
      return;
    }
    if (scopedFeed) scopedFeed.refresh(scope);
    else
      scopedFeed = new TagScopedFeed(
        options.scopeReader,
        current.domainId,
        scope,
        (id) => view.isShowing(id),
        (message) => {
          if (phase === "ready") view.offer(message, () => domainMessageFrame(message));
        },
        log,
      );
  };

  const helloTimer = setTimeout(() => {
    if (phase !== "hello") return;
    phase = "closed";
    socket.close(SOCKET_CLOSE.helloTimeout, "hello timeout");
  }, timings.helloTimeoutMs);

  const pingTimer = setInterval(() => {
    if (!isAlive) {
      socket.terminate();
      return;
    }
    isAlive = false;
    socket.ping();
  }, timings.pingIntervalMs);

  const recheckTimer = setInterval(async () => {
    if (phase !== "ready" || !session) return;
    try {
      session = await resolveSession(session.token, { touch: false });
      followTagScope(session);
      subscribeDomainIfAllowed(session);
    } catch (error) {
      if (error instanceof AppError) endWith(error.code, SOCKET_CLOSE.sessionEnded);
      else log.warn({ err: error }, "realtime session re-check failed; will retry");
    }
  }, timings.recheckIntervalMs);

  const onHello = async (data: RawData) => {
    phase = "checking";
    clearTimeout(helloTimer);
    const { token, views } = parseHello(data);
    try {
      const current = await resolveSession(token, { touch: true });
      // The client may have gone while the session was being checked.
      if (socket.readyState !== socket.OPEN) return;
      session = current;
      unsubscribeSession = bus.subscribe(sessionTopic(current.sessionId), (message) => {
        if (isSessionEnded(message)) endWith(message.code, SOCKET_CLOSE.sessionEnded);
      });
      followTagScope(current);
      subscribeDomainIfAllowed(current);
      phase = "ready";
      send({ type: "ready", domain_id: current.domainId });
      if (views) showViews(views);
    } catch (error) {
      if (!(error instanceof AppError)) log.error({ err: error }, "realtime hello failed");
      endWith(error instanceof AppError ? error.code : "WRITE_DATA_FAILED", SOCKET_CLOSE.tokenRejected);
    }
  };

  socket.on("message", (data) => {
    // The first message is the hello; after `ready` a client may name its views again.
    if (phase === "hello") void onHello(data);
    else if (phase === "ready") {
      const parsed = SocketViewMessageSchema.safeParse(parseJson(data));
      if (parsed.success) showViews(parsed.data.views);
    }
  });
  socket.on("pong", () => {
    isAlive = true;
  });
  socket.on("error", (error) => log.debug({ err: error }, "realtime socket error"));
  socket.on("close", () => {
    live.openSockets -= 1;
    phase = "closed";
    clearTimeout(helloTimer);
    clearInterval(pingTimer);
    clearInterval(recheckTimer);
    unsubscribeDomain?.();
    unsubscribeSession?.();
    view.close();
  });
}

/**
 * GET /api/ws/: the realtime socket (register inside the /api scope, after @fastify/websocket).
 * Answers the node's live views, whose counts GET /metrics reads.
 */
export async function registerRealtimeSocket(
  scope: FastifyInstance,
  options: RealtimeOptions,
): Promise<LiveViews> {
  const live = new LiveViews(options.timings);
  scope.addHook("onClose", async () => live.close());
  scope.get(
    "/ws/",
    { websocket: true, config: { isPublic: true }, schema: { hide: true } },
    (socket, request) => {
      serveConnection(socket, options, live, request.log);
    },
  );
  return live;
}
