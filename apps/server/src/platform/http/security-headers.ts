import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet from "helmet";

/**
 * Security headers on every answer. The CSP lets a Vite-built React + MUI app run: its own
 * scripts only, inline styles (MUI/emotion inject them), data: images, and the realtime socket.
 * The fleet map (ADR 045) adds the origin of MAP_STYLE_URL, where its style, tiles, glyphs and
 * sprites come from, and MapLibre's workers, which it starts from blob: URLs.
 */
function securityMiddleware(mapOrigin: string | null) {
  const map = mapOrigin === null ? [] : [mapOrigin];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:", ...map],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", "ws:", "wss:", ...map],
        workerSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // No upgrade-insecure-requests: installations on a plain-HTTP LAN address must keep working.
      },
    },
    // Old browsers read only X-Frame-Options: it says what frame-ancestors 'none' says.
    xFrameOptions: { action: "deny" },
  });
}

/**
 * The headers helmet sets, worked out once: they do not depend on the request (no CSP nonces), and
 * @fastify/helmet would rebuild helmet and re-parse the policy on every call.
 */
function helmetHeaders(mapOrigin: string | null): Record<string, string> {
  const middleware = securityMiddleware(mapOrigin);
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/** Sets the security headers on every answer; `mapStyleUrl` is MAP_STYLE_URL (null: unset). */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  mapStyleUrl: string | null,
): Promise<void> {
  const headers = helmetHeaders(mapStyleUrl === null ? null : new URL(mapStyleUrl).origin);
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(headers);
    // API answers carry sessions, tokens and personal data: no cache keeps them (sign-in above all).
    // A route that may be cached (a file download) sets its own header, which wins.
    if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
    done();
  });
}
