import {
  combineTagScopes,
  decide,
  type PermissionAction,
  type PermissionDecision,
  type PermissionSubject,
  type PermissionTargetOf,
  PLUGINS,
  type TagScope,
} from "@cellfleet/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import type { SessionContext } from "./session-context";

// The server's reading of the contract's permission table (docs/adr/009-one-permission-table.md):
// every guarded route names its action in its config, the session guard checks it before the body
// is validated, and services ask `assertCan` for what depends on the target.

/** What a route does, by the permission table: one action, or a read and a save chosen by `saves`. */
export type RoutePermission =
  | PermissionAction
  | { readonly read: PermissionAction; readonly save: PermissionAction };

declare module "fastify" {
  interface FastifyContextConfig {
    /** The route's action in the permission table; every non-public route names one. */
    permission?: RoutePermission;
  }
  interface FastifyInstance {
    /** Every route of the /api scope with its permission (filled by recordApiRoutes). */
    apiRoutes: ApiRouteEntry[];
  }
}

/** One route of the guarded /api scope, as registered: what the role-matrix test enumerates. */
export interface ApiRouteEntry {
  readonly method: string;
  readonly url: string;
  readonly isPublic: boolean;
  readonly permission: RoutePermission | undefined;
  readonly saves: boolean | ((request: FastifyRequest) => boolean) | undefined;
  /** Recorded in the audit log though it does not save (sign-in, registration). */
  readonly isAudited: boolean;
  /** A WebSocket route (the realtime socket, a terminal): spoken to by an upgrade, not a request. */
  readonly isWebSocket: boolean;
}

/** The permission subject of a session: the same shape the web's session user has. */
export function subjectOf(session: SessionContext): PermissionSubject {
  const plugins: unknown = session.user.plugins;
  return {
    _id: session.user.id,
    role: session.role,
    is_junior: session.user.is_junior,
    is_demo: session.isDemo,
    plugins: Array.isArray(plugins)
      ? plugins.filter((plugin) => (PLUGINS as readonly unknown[]).includes(plugin))
      : [],
    // A call made with an API token may do only what the token carries and the person still may.
    ...(session.apiToken ? { grants: session.apiToken.permissions } : {}),
    ...(tagScopeOf(session).length > 0 ? { is_tag_limited: true } : {}),
  };
}

/**
 * The routers a session reaches within its domain (ADR 041): the person's tags, then the token's,
 * each a condition of its own, so a token only narrows. Read from the session on every call, and
 * applied in SQL against the routers' tags as they are now, so a removed tag counts at once.
 */
export function tagScopeOf(session: SessionContext): TagScope {
  return combineTagScopes(session.user.tag_scope ?? [], session.apiToken?.tagScope ?? []);
}

/**
 * Refuses a call made with an API token: tokens never change passwords, second factors or tokens
 * (ADR 040). For parts of a route the table cannot tell apart (the password of a profile save).
 */
export function assertNotApiToken(session: SessionContext, what: string): void {
  if (session.apiToken) throw new AppError("ACCESS_DENIED", `An API token cannot ${what}; sign in to do it`);
}

function throwUnlessAllowed(decision: PermissionDecision): void {
  if (decision === "demo")
    throw new AppError("DEMO_PERMISSIONS_DENIED", "Saving is not available in demo mode");
  if (decision === "deny") throw new AppError("PERMISSION_DENIED", "Access denied");
}

/** Throws PERMISSION_DENIED (or DEMO_PERMISSIONS_DENIED) unless the table lets the session do it. */
export function assertCan<A extends PermissionAction>(
  session: SessionContext,
  action: A,
  target?: PermissionTargetOf<A>,
): void {
  throwUnlessAllowed(decide(subjectOf(session), action, target));
}

/** The action a request performs: the route's one action, or its save action when `saves` says so. */
export function actionOfRequest(request: FastifyRequest): PermissionAction | undefined {
  const { permission, saves } = request.routeOptions.config;
  if (permission === undefined || typeof permission === "string") return permission;
  const isSaving = saves === true || (typeof saves === "function" && saves(request));
  return isSaving ? permission.save : permission.read;
}

/**
 * The route guard: refuses a caller the table denies, before the body is validated (403 before
 * 400). A guarded route that names no action is refused to everyone, so a forgotten entry fails
 * closed, and the role-matrix test names it.
 */
export function checkRoutePermission(request: FastifyRequest, session: SessionContext): void {
  const action = actionOfRequest(request);
  if (action === undefined) throw new AppError("PERMISSION_DENIED", "This route declares no permission");
  throwUnlessAllowed(decide(subjectOf(session), action));
}

/** Records every route registered in the scope from now on, so tests can enumerate them. */
export function recordApiRoutes(scope: FastifyInstance, routes: ApiRouteEntry[]): void {
  scope.addHook("onRoute", (route) => {
    const config = (route.config ?? {}) as {
      isPublic?: boolean;
      permission?: RoutePermission;
      saves?: ApiRouteEntry["saves"];
      audited?: unknown;
    };
    for (const method of [route.method].flat()) {
      if (method === "HEAD") continue;
      routes.push({
        method,
        url: route.url,
        isPublic: config.isPublic === true,
        permission: config.permission,
        saves: config.saves,
        isAudited: Boolean(config.audited),
        isWebSocket: (route as { websocket?: boolean }).websocket === true,
      });
    }
  });
}
