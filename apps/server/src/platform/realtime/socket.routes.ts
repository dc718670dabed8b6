import {
  can,
  type ErrorCode,
  type PermissionAction,
  type ServerSocketMessage,
  ServerSocketMessageSchema,
  SOCKET_CLOSE,
  SocketHelloSchema,
  type SocketMessageType,
} from "@cellfleet/contract";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { RawData, WebSocket } from "ws";
import { subjectOf } from "../auth/permissions";
import type { SessionContext, SessionResolver } from "../auth/session-guard";
import { type Bus, domainTopic, SUPERUSERS_TOPIC, sessionTopic } from "../bus/bus";
import { AppError } from "../errors";

/** Timings of the realtime socket; tests shorten them. */
export interface RealtimeTimings {
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
};

export interface RealtimeOptions {
  resolveSession: SessionResolver;
  bus: Bus;
  timings: RealtimeTimings;
}

function parseHello(data: RawData): string | null {
  try {
    const parsed = SocketHelloSchema.safeParse(JSON.parse(data.toString()));
    return parsed.success ? parsed.data.token : null;
  } catch {
    return null;
  }
}

/**
 * The text each socket of a domain is sent for a domain message: validated and serialised once
 * however many sockets receive it, since the bus hands all its subscribers the same object. A batch
 * of ingest pushes up to a thousand devices at once, 1–1.7 ms to validate and serialise; done per
 * socket, 32 open dashboards at ten batches a second would take 40% of a core. Null for a message that is
 * not a valid domain message.
 */
const domainMessageTexts = new WeakMap<object, string | null>();
export function domainMessageText(message: unknown): string | null {
  if (typeof message !== "object" || message === null) return null;
  const known = domainMessageTexts.get(message);
  if (known !== undefined) return known;
  const parsed = ServerSocketMessageSchema.safeParse(message);
  const text = parsed.success && parsed.data.type !== "session" ? JSON.stringify(parsed.data) : null;
  domainMessageTexts.set(message, text);
  return text;
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
function serveConnection(socket: WebSocket, options: RealtimeOptions, log: FastifyBaseLogger): void {
  const { bus, resolveSession, timings } = options;
  let phase: "hello" | "checking" | "ready" | "closed" = "hello";
  let isAlive = true;
  let session: SessionContext | null = null;
  let unsubscribeDomain: (() => void) | null = null;
  let unsubscribeSession: (() => void) | null = null;

  const sendText = (text: string) => {
    if (socket.readyState === socket.OPEN) socket.send(text);
  };
  const send = (message: ServerSocketMessage) => sendText(JSON.stringify(message));
  const endWith = (code: ErrorCode | string, closeCode: number) => {
    if (phase === "closed") return;
    send({ type: "session", state: "ended", code });
    phase = "closed";
    socket.close(closeCode, code);
  };

  const subscribeDomainIfAllowed = (current: SessionContext) => {
    // While the factory password is unchanged the user may see nothing of the domain (spec section 2).
    if (unsubscribeDomain || current.user.factory_password) return;
    // Superusers belong to no domain; their topic carries their notifications and the software screens' news.
    const topic = current.domainId === null ? SUPERUSERS_TOPIC : domainTopic(current.domainId);
    unsubscribeDomain = bus.subscribe(topic, (message) => {
      const text = domainMessageText(message);
      if (text === null) {
        log.warn({ topic }, "dropped a malformed realtime message");
        return;
      }
      // A valid message (domainMessageText parsed it), so its type is one of the contract's.
      const action = MESSAGE_PERMISSIONS[(message as ServerSocketMessage).type];
      if (action && !(session && can(subjectOf(session), action))) return;
      sendText(text);
    });
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
      subscribeDomainIfAllowed(session);
    } catch (error) {
      if (error instanceof AppError) endWith(error.code, SOCKET_CLOSE.sessionEnded);
      else log.warn({ err: error }, "realtime session re-check failed; will retry");
    }
  }, timings.recheckIntervalMs);

  const onHello = async (data: RawData) => {
    phase = "checking";
    clearTimeout(helloTimer);
    const token = parseHello(data);
    try {
      const current = await resolveSession(token, { touch: true });
      // The client may have gone while the session was being checked.
      if (socket.readyState !== socket.OPEN) return;
      session = current;
      unsubscribeSession = bus.subscribe(sessionTopic(current.sessionId), (message) => {
        if (isSessionEnded(message)) endWith(message.code, SOCKET_CLOSE.sessionEnded);
      });
      subscribeDomainIfAllowed(current);
      phase = "ready";
      send({ type: "ready", domain_id: current.domainId });
    } catch (error) {
      if (!(error instanceof AppError)) log.error({ err: error }, "realtime hello failed");
      endWith(error instanceof AppError ? error.code : "WRITE_DATA_FAILED", SOCKET_CLOSE.tokenRejected);
    }
  };

  socket.on("message", (data) => {
    // Only the first message means anything; the socket is otherwise server-to-client.
    if (phase === "hello") void onHello(data);
  });
  socket.on("pong", () => {
    isAlive = true;
  });
  socket.on("error", (error) => log.debug({ err: error }, "realtime socket error"));
  socket.on("close", () => {
    phase = "closed";
    clearTimeout(helloTimer);
    clearInterval(pingTimer);
    clearInterval(recheckTimer);
    unsubscribeDomain?.();
    unsubscribeSession?.();
  });
}

/** GET /api/ws/: the realtime socket (register inside the /api scope, after @fastify/websocket). */
export async function registerRealtimeSocket(
  scope: FastifyInstance,
  options: RealtimeOptions,
): Promise<void> {
  scope.get(
    "/ws/",
    { websocket: true, config: { isPublic: true }, schema: { hide: true } },
    (socket, request) => {
      serveConnection(socket, options, request.log);
    },
  );
}
