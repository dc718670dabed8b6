import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { checkRoutePermission } from "./permissions";
import type { ApiTokenResolver, SessionContext, SessionResolver } from "./session-context";

// The session types live apart so the permission table can name them without importing the guard.
export type { ApiTokenResolver, SessionContext, SessionResolver } from "./session-context";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Anyone may call the route; no token is checked. */
    isPublic?: boolean;
    /** The route answers while the user's factory password is unchanged or a second factor is to enrol (profile, self, logout). */
    allowsFactoryPassword?: boolean;
    /** The route saves something (audit, re-authentication, read-or-save actions); a function decides per request. */
    saves?: boolean | ((request: FastifyRequest) => boolean);
    /** A call that saves passes the re-authentication rule first (`assertRecentSignIn`); reads pass. */
    asksRecentSignIn?: boolean;
  }
  interface FastifyRequest {
    /** The caller's session; null on public routes. Use requireSession() in handlers. */
    session: SessionContext | null;
    /** The token the call carried, from the Token header or the body's `token` field. */
    token: string | null;
  }
}

/** Reads the token from the Token header, else from a non-GET body's `token`, and strips it from the body. */
function takeToken(request: FastifyRequest): string | null {
  const header = request.headers.token;
  let token = typeof header === "string" && header.length > 0 ? header : null;
  const body = request.body;
  if (request.method !== "GET" && body !== null && typeof body === "object" && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if ("token" in record) {
      if (token === null && typeof record.token === "string" && record.token.length > 0) token = record.token;
      // The rest of the body is validated by the route's schema, which knows nothing of tokens.
      delete record.token;
    }
  }
  return token;
}

/** The API token of an `Authorization: Bearer` header (ADR 040), or null without one. */
function takeBearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== "string") return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Decorates requests with `session` and `token`; call once on the root instance. */
export function decorateSessionRequest(app: FastifyInstance): void {
  app.decorateRequest("session", null);
  app.decorateRequest("token", null);
}

/**
 * Guards every route of the scope it is installed in: token → session (or 401/403; an
 * `Authorization: Bearer` API token → its person's session limited to the token's actions), the
 * factory-password lock, then the route's action in the permission table (403 PERMISSION_DENIED,
 * or DEMO_PERMISSIONS_DENIED for the demo user's saves), all before the body is validated.
 * `afterWrite` runs before the answer of every call that may have written accounts (a route that
 * saves, or one audited without saving: sign-in, sign-out, registration, reset), so cached sessions
 * never outlive a change. The broker's public auth hooks are neither, so devices never clear it.
 * A saving call to a route flagged `asksRecentSignIn` passes `assertRecentSignIn` (the auth module
 * fills it: hook "auth.recentSignIn") once its body is valid (400 before REAUTH).
 */
export function installSessionGuard(
  scope: FastifyInstance,
  ports: {
    resolveSession: SessionResolver;
    resolveApiToken: ApiTokenResolver;
    afterWrite: () => Promise<void>;
    assertRecentSignIn: (session: SessionContext) => Promise<void>;
  },
): void {
  const { resolveSession, resolveApiToken, afterWrite, assertRecentSignIn } = ports;
  scope.addHook("preValidation", async (request) => {
    request.token = takeToken(request);
    const bearer = takeBearerToken(request);
    const config = request.routeOptions.config;
    if (config.isPublic) return;
    const session =
      bearer === null
        ? await resolveSession(request.token, { touch: true })
        : await resolveApiToken(bearer, request.ip);
    if (session.user.factory_password && !config.allowsFactoryPassword) {
      throw new AppError("PERMISSION_DENIED", "Change the factory password first");
    }
    if (session.isSecondFactorPending && !config.allowsFactoryPassword) {
      throw new AppError("PERMISSION_DENIED", "Enrol a second factor first");
    }
    request.session = session;
    checkRoutePermission(request, session);
  });

  scope.addHook("preHandler", async (request) => {
    const { session } = request;
    const { asksRecentSignIn, saves } = request.routeOptions.config;
    if (!session || !asksRecentSignIn || !saves || (typeof saves === "function" && !saves(request))) return;
    await assertRecentSignIn(session);
  });

  scope.addHook("onSend", async (request) => {
    const config = request.routeOptions.config;
    if (config.saves || config.audited) await afterWrite();
  });
}

/** The session of a guarded route's request. */
export function requireSession(request: FastifyRequest): SessionContext {
  if (!request.session) throw new AppError("TOKEN_NOT_GIVEN", "Sign in first");
  return request.session;
}
