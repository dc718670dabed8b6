import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { TunnelEndReason } from "@cellfleet/contract";
import type { RouterLink } from "./ssh-endpoint";
import { createPacer, type TerminalLimits } from "./terminal-session";
import { RELAYED_HEADER } from "./web-origin-relay";

// One web-interface session on this node (ADR 038): each HTTP request (and WebSocket upgrade) from
// the session's own origin goes through a new channel of the router's one forward to its web server.
// Every byte each way is counted, paced to the bandwidth cap and held to the idle time-out, the
// absolute limit and the quota, as the terminal's are.

/** What the session reports when it ends. */
export interface WebOutcome {
  reason: TunnelEndReason;
  bytesUp: number;
  bytesDown: number;
}

/** How the router's cookies cross the proxy: which of the browser's it sees, and how its own are set. */
export interface CookieRules {
  /** The Cookie header the router gets (the console's and the proxy's own cookies left out). */
  toRouter(header: string | undefined): string | undefined;
  /** A Set-Cookie line of the router as the browser gets it. */
  toBrowser(line: string): string;
}

/** A running web session: requests and upgrades from its origin, and ending it from outside. */
export interface WebProxy {
  handle(request: IncomingMessage, response: ServerResponse, cookies: CookieRules): void;
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, cookies: CookieRules): void;
  end(reason: TunnelEndReason): void;
}

type Channel = Duplex & { close?: () => void };

/** Headers that belong to one hop and are not passed on. */
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  RELAYED_HEADER,
]);

function forwardedHeaders(headers: IncomingHttpHeaders, cookies: CookieRules): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_HEADERS.has(name) && name !== "cookie") out[name] = value;
  }
  const cookie = cookies.toRouter(headers.cookie);
  if (cookie) out.cookie = cookie;
  return out;
}

/** Runs the session's proxy over `link` until it ends; `onEnd` hears the outcome once. */
export function runWebProxy(options: {
  link: RouterLink;
  limits: TerminalLimits;
  onEnd: (outcome: WebOutcome) => void;
}): WebProxy {
  const { limits } = options;
  let bytesUp = 0;
  let bytesDown = 0;
  let isOver = false;
  const channels = new Set<Channel>();
  const downPacer = createPacer(limits.bytesPerSecond);
  const upPacer = createPacer(limits.bytesPerSecond);
  // The idle time-out is checked on a timer of its own rather than re-armed for every chunk: a
  // download moves thousands of chunks a second.
  let lastActiveAt = Date.now();
  const resetIdle = () => {
    lastActiveAt = Date.now();
  };
  const idleCheck = (): NodeJS.Timeout =>
    setTimeout(
      () => {
        const idleFor = Date.now() - lastActiveAt;
        if (idleFor >= limits.idleMs) finish("idle");
        else idleTimer = idleCheck();
      },
      Math.max(50, limits.idleMs - (Date.now() - lastActiveAt)),
    );
  let idleTimer = idleCheck();
  const absoluteTimer = setTimeout(() => finish("limit"), limits.absoluteMs);

  function finish(reason: TunnelEndReason): void {
    if (isOver) return;
    isOver = true;
    clearTimeout(idleTimer);
    clearTimeout(absoluteTimer);
    for (const channel of channels) channel.destroy();
    options.link.close();
    options.onEnd({ reason, bytesUp, bytesDown });
  }

  /** Counts one chunk, ends the session at its quota, and pauses `source` while it is ahead of the rate. */
  const count = (direction: "up" | "down", bytes: number, source: Duplex | IncomingMessage) => {
    if (direction === "up") bytesUp += bytes;
    else bytesDown += bytes;
    resetIdle();
    if (bytesUp + bytesDown >= limits.quotaBytes) return finish("quota");
    const delay = (direction === "up" ? upPacer : downPacer).delayAfter(bytes);
    if (delay > 0) {
      source.pause();
      setTimeout(() => source.resume(), delay);
    }
  };

  /** A channel to the router's web server whose bytes are counted and paced; `source` is what feeds it. */
  const openMetered = async (source: Duplex | IncomingMessage): Promise<Channel> => {
    const channel = (await options.link.openChannel()) as unknown as Channel;
    if (isOver) {
      channel.destroy();
      throw new Error("the session is over");
    }
    channels.add(channel);
    channel.on("close", () => channels.delete(channel));
    channel.on("data", (chunk: Buffer) => count("down", chunk.length, channel));
    const write = channel.write.bind(channel) as (...args: unknown[]) => boolean;
    channel.write = ((chunk: Buffer | string, ...rest: unknown[]) => {
      count("up", typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length, source);
      return write(chunk, ...rest);
    }) as Channel["write"];
    return channel;
  };

  options.link.onClose(() => finish("closed"));
  resetIdle();

  return {
    handle(request, response, cookies) {
      if (isOver) return void response.destroy();
      const outgoing = http.request({
        method: request.method,
        path: request.url,
        headers: forwardedHeaders(request.headers, cookies),
        createConnection: (_options, done) => {
          openMetered(request).then(
            (channel) => done(null, channel as never),
            (error: Error) => done(error, undefined as never),
          );
          return undefined as never;
        },
      });
      outgoing.on("response", (answer) => {
        const headers = { ...answer.headers };
        for (const name of HOP_HEADERS) delete headers[name];
        if (headers["set-cookie"]) headers["set-cookie"] = headers["set-cookie"].map(cookies.toBrowser);
        response.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers);
        answer.pipe(response);
      });
      outgoing.on("error", () => {
        if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
        response.end("The router's web interface did not answer");
      });
      response.on("close", () => outgoing.destroy());
      request.pipe(outgoing);
    },

    upgrade(request, socket, head, cookies) {
      if (isOver) return void socket.destroy();
      openMetered(socket).then(
        (channel) => {
          const headers = forwardedHeaders(request.headers, cookies);
          const lines = [`${request.method} ${request.url} HTTP/1.1`, "Connection: Upgrade"];
          lines.push(`Upgrade: ${request.headers.upgrade ?? "websocket"}`);
          for (const [name, value] of Object.entries(headers)) {
            for (const one of Array.isArray(value) ? value : [value]) lines.push(`${name}: ${one}`);
          }
          channel.write(`${lines.join("\r\n")}\r\n\r\n`);
          if (head.length > 0) channel.write(head);
          socket.pipe(channel).pipe(socket);
          socket.on("close", () => channel.destroy());
          channel.on("close", () => socket.destroy());
          socket.on("error", () => channel.destroy());
        },
        () => socket.destroy(),
      );
    },

    end: finish,
  };
}
