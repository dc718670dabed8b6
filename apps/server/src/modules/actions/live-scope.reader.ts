import type { AppContext } from "../../platform/context";
import type { TagScopeReader } from "../../platform/realtime/tag-scoped-feed";
import { devicesRepo } from "../devices/devices.repo";
import { commandsRepo } from "./commands.repo";

/** What a tag-limited realtime socket reads of its scope (ADR 041): its routers, and which commands are wholly theirs. */
export function createLiveScopeReader(ctx: Pick<AppContext, "db">): TagScopeReader {
  return {
    findRouterIdsWithin: (domainId, scope) =>
      devicesRepo(ctx.db).findDeviceIdsWithinTagScope(domainId, scope),
    findCommandIdsWithin: (domainId, scope, ids) =>
      commandsRepo(ctx.db).findCommandIdsWithinTagScope(domainId, ids, scope),
  };
}
