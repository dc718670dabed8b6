import { randomBytes, timingSafeEqual } from "node:crypto";
import http, { type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import type { WebTunnelLink } from "@cellfleet/contract";
import type { FastifyBaseLogger } from "fastify";
import type { Bus } from "../../platform/bus/bus";
import type { TunnelWebConfig } from "../../platform/config";
import {
  createOriginRelay,
  type OriginRelay,
  RELAYED_HEADER,
  relayRequest,
  relayUpgrade,
} from "./web-origin-relay";
import type { CookieRules, WebProxy } from "./web-proxy";

// The web-interface sessions' own origins (ADR 038): the router's pages never run in the console's
// origin. With TUNNEL_WEB_HOST (`*.tunnel.example.com`) each session is `<token>.tunnel.example.com`,
// all served by one listener on the first port of TUNNEL_WEB_PORTS (the front proxy sends the
// wildcard there); without it each session listens on a port of its own on the console's host.
// Under the wildcard every node listens from its start, and a request for a session another node
// holds is passed to that node (web-origin-relay.ts).
// A single-use link sets the session's cookie on its origin; without that cookie, or after the
// session, every request answers ATUN_SRV_NOT_FOUND.

/** The path of the session link: `?key=` is good once, for LINK_TTL_MS. */
export const ENTER_PATH = "/.cellfleet-tunnel/enter";

/** How long a session link may wait to be followed. */
export const LINK_TTL_MS = 60_000;

interface Origin {
  token: string;
  /** The session's proxy once the router has dialled in; null when it never did. */
  proxy: Promise<WebProxy | null>;
  linkKey: string | null;
  linkExpiresAt: number;
  cookieValue: string;
  cookies: CookieRules & { own: string };
  /** The listener of a per-session port; null under a wildcard host. */
  server: Server | null;
}

/** The sessions' origins on this node. */
export interface WebOrigins {
  /** Gives session `id` an origin of its own and answers its single-use link. */
  open(id: string, proxy: Promise<WebProxy | null>): Promise<WebTunnelLink>;
  /** The session is over: its origin answers ATUN_SRV_NOT_FOUND from now on. */
  close(id: string): void;
  /** Under TUNNEL_WEB_HOST: starts the wildcard listener now (a node serves other nodes' sessions too). */
  listenForHosts(): Promise<void>;
  closeAll(): Promise<void>;
}

const NOT_FOUND = JSON.stringify({
  code: "ATUN_SRV_NOT_FOUND",
  message: "The session link is unknown or expired",
});

const NOT_CONNECTED = JSON.stringify({
  code: "PEER_NOT_CONNECTED",
  message: "The device is not connected to the tunnel server",
});

function answerNotFound(response: ServerResponse): void {
  response.writeHead(404, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(NOT_FOUND);
}

/** Refuses an upgrade for a session unknown here, ended, or without its cookie. */
function refuseUpgrade(socket: Duplex): void {
  socket.end(`HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\n\r\n${NOT_FOUND}`);
}

function answerNotConnected(response: ServerResponse): void {
  response.writeHead(502, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(NOT_CONNECTED);
}

const isSame = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function parseCookies(header: string | undefined): [string, string][] {
  if (!header) return [];
  return header.split(";").flatMap((part) => {
    const at = part.indexOf("=");
    return at > 0 ? [[part.slice(0, at).trim(), part.slice(at + 1).trim()] as [string, string]] : [];
  });
}

/**
 * Cookies of one session. Its own cookie is `cf_tunnel_<token>`; the router's cookies lose their
 * Domain (they belong to the session's origin) and keep their Path. Ports of one host share the
 * browser's cookies, so on a per-session port the router's cookies are also named with the
 * session's prefix, and the router sees only those, under their own names.
 */
export function cookieRulesFor(token: string, isPortOrigin: boolean): CookieRules & { own: string } {
  const own = `cf_tunnel_${token}`;
  const prefix = isPortOrigin ? `cf_${token}_` : "";
  return {
    own,
    toRouter(header) {
      const kept = parseCookies(header).flatMap(([name, value]) => {
        if (name === own || !name.startsWith(prefix)) return [];
        return [`${name.slice(prefix.length)}=${value}`];
      });
      return kept.length > 0 ? kept.join("; ") : undefined;
    },
    toBrowser(line) {
      const [pair = "", ...attributes] = line.split(";");
      const kept = attributes.filter((attribute) => !/^\s*domain\s*=/i.test(attribute));
      return [`${prefix}${pair.trim()}`, ...kept.map((attribute) => attribute.trim())].join("; ");
    },
  };
}

/** The origins of this node's web sessions, by `config` (TUNNEL_WEB_HOST, TUNNEL_WEB_PORTS). */
export function createWebOrigins(config: TunnelWebConfig, log: FastifyBaseLogger, bus?: Bus): WebOrigins {
  const byId = new Map<string, Origin>();
  const byToken = new Map<string, Origin>();
  const suffix = config.hostPattern?.slice(1) ?? null; // ".tunnel.example.com"
  let shared: Promise<Server> | null = null;
  let sharedAddress: string | null = null;
  const relay: OriginRelay | null =
    suffix !== null && bus
      ? createOriginRelay(
          bus,
          (token) => byToken.has(token),
          () => sharedAddress,
        )
      : null;

  /** Whether the request carries the session's own cookie, set by its link. */
  const hasSessionCookie = (origin: Origin, request: IncomingMessage) => {
    const presented = parseCookies(request.headers.cookie).find(([name]) => name === origin.cookies.own);
    return presented !== undefined && isSame(presented[1], origin.cookieValue);
  };

  /** The session link: good once, before it expires; it sets the session's cookie and opens the UI. */
  function enter(origin: Origin, url: URL, response: ServerResponse): void {
    const key = url.searchParams.get("key") ?? "";
    if (origin.linkKey === null || Date.now() >= origin.linkExpiresAt || !isSame(key, origin.linkKey)) {
      answerNotFound(response);
      return;
    }
    origin.linkKey = null;
    const secure = config.scheme === "https" ? "; Secure" : "";
    response.writeHead(302, {
      location: "/",
      "set-cookie": `${origin.cookies.own}=${origin.cookieValue}; Path=/; HttpOnly; SameSite=Lax${secure}`,
      "cache-control": "no-store",
    });
    response.end();
  }

  /** The token a request to the wildcard listener names in its host ("" when none). */
  const tokenOfHost = (request: IncomingMessage): string => {
    const host = (request.headers.host ?? "").toLowerCase().replace(/:\d+$/, "");
    return suffix && host.endsWith(suffix) ? host.slice(0, -suffix.length) : "";
  };

  /** The token of a request to the wildcard listener for a session this node does not hold, to pass on. */
  const tokenToRelay = (request: IncomingMessage): string | null => {
    if (relay === null || request.headers[RELAYED_HEADER] !== undefined) return null;
    const token = tokenOfHost(request);
    return /^[0-9a-f]{32}$/.test(token) && !byToken.has(token) ? token : null;
  };

  function serve(origin: Origin | undefined, request: IncomingMessage, response: ServerResponse): void {
    const token = origin ? null : tokenToRelay(request);
    if (token !== null && relay !== null) {
      void relay.locate(token).then((address) => {
        if (address === null) return answerNotFound(response);
        relayRequest(address, request, response, () => {
          relay.forget(token);
          answerNotFound(response);
        });
      });
      return;
    }
    const url = new URL(request.url ?? "/", "http://origin");
    if (origin && url.pathname === ENTER_PATH) enter(origin, url, response);
    else if (!origin || !hasSessionCookie(origin, request)) answerNotFound(response);
    else {
      void origin.proxy.then((proxy) =>
        proxy ? proxy.handle(request, response, origin.cookies) : answerNotConnected(response),
      );
    }
  }

  function serveUpgrade(origin: Origin | undefined, request: IncomingMessage, socket: Duplex, head: Buffer) {
    const token = origin ? null : tokenToRelay(request);
    if (token !== null && relay !== null) {
      void relay
        .locate(token)
        .then((address) =>
          address === null ? refuseUpgrade(socket) : relayUpgrade(address, request, socket, head),
        );
      return;
    }
    if (!origin || !hasSessionCookie(origin, request)) return refuseUpgrade(socket);
    void origin.proxy.then((proxy) =>
      proxy ? proxy.upgrade(request, socket, head, origin.cookies) : socket.destroy(),
    );
  }

  const originOfHost = (request: IncomingMessage) => byToken.get(tokenOfHost(request));

  async function listen(port: number, onRequest: (request: IncomingMessage) => Origin | undefined) {
    const server = http.createServer((request, response) => serve(onRequest(request), request, response));
    server.on("upgrade", (request, socket, head) => serveUpgrade(onRequest(request), request, socket, head));
    server.on("clientError", (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "0.0.0.0", () => resolve());
    });
    return server;
  }

  /** A per-session port: the first free one of the range. */
  async function listenOnFreePort(origin: () => Origin | undefined): Promise<Server> {
    const [first, last] = config.ports;
    for (let port = first; port <= last; port += 1) {
      try {
        return await listen(port, origin);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
      }
    }
    throw new Error(`no free port in TUNNEL_WEB_PORTS ${first}-${last}`);
  }

  /** The wildcard listener, started once; other nodes reach it at TUNNEL_WEB_NODE_HOST and its port. */
  const listenShared = async () => {
    shared ??= listen(config.ports[0], originOfHost).then((server) => {
      sharedAddress = `${config.nodeHost}:${(server.address() as AddressInfo).port}`;
      return server;
    });
    await shared;
  };

  return {
    async open(id, proxy) {
      const token = randomBytes(16).toString("hex");
      const cookies = cookieRulesFor(token, suffix === null);
      const origin: Origin = {
        token,
        proxy,
        linkKey: randomBytes(24).toString("base64url"),
        linkExpiresAt: Date.now() + LINK_TTL_MS,
        cookieValue: randomBytes(24).toString("base64url"),
        cookies,
        server: null,
      };
      let base: string;
      if (suffix === null) {
        origin.server = await listenOnFreePort(() => (byId.get(id) === origin ? origin : undefined));
        base = `http://${config.consoleHost}:${(origin.server.address() as AddressInfo).port}`;
      } else {
        await listenShared();
        base = `${config.scheme}://${token}${suffix}`;
      }
      byId.set(id, origin);
      byToken.set(token, origin);
      return { origin: base, url: `${base}${ENTER_PATH}?key=${origin.linkKey}` };
    },

    close(id) {
      const origin = byId.get(id);
      if (!origin) return;
      byId.delete(id);
      byToken.delete(origin.token);
      origin.server?.close();
      origin.server?.closeAllConnections();
    },

    async listenForHosts() {
      if (suffix !== null) await listenShared();
    },

    async closeAll() {
      relay?.stop();
      for (const id of [...byId.keys()]) this.close(id);
      const server = await shared?.catch(() => null);
      if (server) {
        server.close();
        server.closeAllConnections();
      }
      log.debug("remote access: web origins closed");
    },
  };
}
