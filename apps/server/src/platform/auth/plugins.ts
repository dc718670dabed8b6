import { PLUGINS, type Plugin } from "@cellfleet/contract";
import type { FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { requireSession, type SessionContext } from "./session-guard";

/** Whether the session's user has the plugin (spec section 1: features are enabled per user). */
export function hasPlugin(session: SessionContext, plugin: Plugin): boolean {
  const plugins = session.user.plugins;
  return (
    Array.isArray(plugins) && plugins.includes(plugin) && (PLUGINS as readonly string[]).includes(plugin)
  );
}

/**
 * A route hook for a feature's pages and changes: callers without the plugin get PERMISSION_DENIED.
 * Lists that answer empty without the plugin (spec section 6) check `hasPlugin` in their service instead.
 */
export function requirePlugin(plugin: Plugin) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!hasPlugin(requireSession(request), plugin)) {
      throw new AppError("PERMISSION_DENIED", `The ${plugin} plugin is not enabled for this user`);
    }
  };
}
