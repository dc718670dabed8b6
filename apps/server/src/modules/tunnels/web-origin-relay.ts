import { randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import type { Bus } from "../../platform/bus/bus";

// Web sessions under a wildcard host with several server nodes (ADR 038): the front proxy may send a
// session's requests to any node, but the router dialled the node that opened the session. A node
// that does not hold the session asks the others on the bus which one does, and passes the request
// (or WebSocket upgrade) to that node's wildcard listener, as it came, marked as passed once.

/** The bus topic on which nodes ask which of them holds a session's token. */
const WHERE_TOPIC = "tunnel-web:where";

/** A header naming a request already passed on by a node: it is never passed on again. */
export const RELAYED_HEADER = "x-cellfleet-tunnel-relayed";

/** How long a node waits for the holder's answer before it answers ATUN_SRV_NOT_FOUND. */
const LOCATE_TIMEOUT_MS = 1_500;

/** How long a holder's address is remembered for a token (a page's many requests ask once). */
const REMEMBER_MS = 60_000;

interface WhereQuestion {
  token: string;
  reply: string;
}

interface WhereAnswer {
  token: string;
  address: string;
}

/** Finding the node that holds a token, and answering for this node's own. */
export interface OriginRelay {
  /** The holder's wildcard listener ("host:port"), or null when no node answers in time. */
  locate(token: string): Promise<string | null>;
  /** The holder did not take a passed request: forget its address for the token. */
  forget(token: string): void;
  stop(): void;
}

/**
 * Answers other nodes' questions for the tokens `holds` says this node holds, with `address()` (null
 * while this node's listener is not up), and asks them for the rest.
 */
export function createOriginRelay(
  bus: Bus,
  holds: (token: string) => boolean,
  address: () => string | null,
): OriginRelay {
  const remembered = new Map<string, { address: string; until: number }>();
  const unsubscribe = bus.subscribe(WHERE_TOPIC, (message) => {
    const question = message as Partial<WhereQuestion>;
    const own = address();
    if (typeof question.token !== "string" || typeof question.reply !== "string" || own === null) return;
    if (!question.reply.startsWith(`${WHERE_TOPIC}:reply:`) || !holds(question.token)) return;
    void bus.publish(question.reply, { token: question.token, address: own } satisfies WhereAnswer);
  });

  return {
    locate(token) {
      const known = remembered.get(token);
      if (known && known.until > Date.now()) return Promise.resolve(known.address);
      return new Promise((resolve) => {
        const reply = `${WHERE_TOPIC}:reply:${randomBytes(12).toString("hex")}`;
        const done = (found: string | null) => {
          clearTimeout(timer);
          stopListening();
          if (found !== null) remembered.set(token, { address: found, until: Date.now() + REMEMBER_MS });
          resolve(found);
        };
        const stopListening = bus.subscribe(reply, (message) => {
          const answer = message as Partial<WhereAnswer>;
          if (answer.token === token && typeof answer.address === "string") done(answer.address);
        });
        const timer = setTimeout(() => done(null), LOCATE_TIMEOUT_MS);
        void bus.publish(WHERE_TOPIC, { token, reply } satisfies WhereQuestion);
      });
    },
    forget(token) {
      remembered.delete(token);
    },
    stop() {
      unsubscribe();
      remembered.clear();
    },
  };
}

const hostAndPort = (address: string) => {
  const at = address.lastIndexOf(":");
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
};

/** Passes `request` to the listener at `address` and its answer back; `onRefused` when nothing takes it. */
export function relayRequest(
  address: string,
  request: IncomingMessage,
  response: ServerResponse,
  onRefused: () => void,
): void {
  const { host, port } = hostAndPort(address);
  const outgoing = http.request({
    host,
    port,
    method: request.method,
    path: request.url,
    headers: { ...request.headers, [RELAYED_HEADER]: "1" },
  });
  outgoing.on("response", (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
    answer.pipe(response);
  });
  outgoing.on("error", () => {
    if (response.headersSent) response.destroy();
    else onRefused();
  });
  response.on("close", () => outgoing.destroy());
  request.pipe(outgoing);
}

/** Passes a WebSocket upgrade to the listener at `address`, then the bytes both ways. */
export function relayUpgrade(address: string, request: IncomingMessage, socket: Duplex, head: Buffer): void {
  const { host, port } = hostAndPort(address);
  const upstream = net.connect(port, host, () => {
    const lines = [`${request.method} ${request.url} HTTP/1.1`, `${RELAYED_HEADER}: 1`];
    for (let index = 0; index < request.rawHeaders.length; index += 2) {
      lines.push(`${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}`);
    }
    upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    socket.pipe(upstream).pipe(socket);
  });
  upstream.setNoDelay(true);
  upstream.on("error", () => socket.destroy());
  socket.on("error", () => upstream.destroy());
  socket.on("close", () => upstream.destroy());
  upstream.on("close", () => socket.destroy());
}
