import { PLUGINS, type Plugin } from "@cellfleet/contract";
import type { SessionContext } from "./session-guard";

/**
 * Whether the session's user has the plugin (spec section 1: features are enabled per user). Actions
 * that need a plugin say so in the permission table; this is for lists that answer empty without it.
 */
export function hasPlugin(session: SessionContext, plugin: Plugin): boolean {
  const plugins = session.user.plugins;
  return (
    Array.isArray(plugins) && plugins.includes(plugin) && (PLUGINS as readonly string[]).includes(plugin)
  );
}
