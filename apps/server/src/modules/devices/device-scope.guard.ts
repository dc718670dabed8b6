import type { FastifyInstance, FastifyRequest } from "fastify";
import { tagScopeOf } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { devicesRepo } from "./devices.repo";

// The tag rule for requests that name routers (ADR 041): the lists apply the scope in their SQL
// (filterCondition, the command targets); a request about named routers is checked here, once, for
// every route, before its handler. A router outside the caller's tags is not found, as another
// domain's is.

const ID_FIELDS = ["dev_id", "device_id"] as const;

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The body's `targets` are ids of something else than routers (files to delete): the guard
     * leaves them to the service, which applies the tag rule to what they name (ADR 041).
     */
    targetsAreNotRouters?: true;
  }
}

function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  return [];
}

/**
 * The router ids a request names: a path's or a body's `dev_id` / `device_id`, a body's `devices`
 * or `targets` when they are lists of ids (a command's targets are an object: the command checks them).
 */
export function namedDeviceIds(request: FastifyRequest): string[] {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const body = (typeof request.body === "object" && request.body !== null ? request.body : {}) as Record<
    string,
    unknown
  >;
  const ids = [
    ...ID_FIELDS.flatMap((field) => [...stringsOf(params[field]), ...stringsOf(body[field])]),
    ...(typeof body.devices === "string" ? [] : stringsOf(body.devices)),
    ...(typeof body.targets === "string" || request.routeOptions.config?.targetsAreNotRouters
      ? []
      : stringsOf(body.targets)),
  ];
  return [...new Set(ids)];
}

/** Throws DEVICE_NOT_FOUND unless every one of these routers lies within the caller's tag scope. */
export async function assertDevicesInTagScope(
  ctx: AppContext,
  session: SessionContext,
  deviceIds: readonly string[],
): Promise<void> {
  const tagScope = tagScopeOf(session);
  if (tagScope.length === 0 || deviceIds.length === 0 || session.domainId === null) return;
  const ids = [...new Set(deviceIds)];
  const within = await devicesRepo(ctx.db).countDevicesWithinTagScope(session.domainId, ids, tagScope);
  if (within < ids.length) throw new AppError("DEVICE_NOT_FOUND");
}

/**
 * Installs the check on every route of the scope: a tag-limited caller's request that names a
 * router outside their tags answers DEVICE_NOT_FOUND (404). Costs nothing for everyone else.
 */
export function installDeviceScopeGuard(scope: FastifyInstance, ctx: AppContext): void {
  scope.addHook("preHandler", async (request) => {
    if (request.session) await assertDevicesInTagScope(ctx, request.session, namedDeviceIds(request));
  });
}
