import { isWithinTagScope, type ServerSocketMessage, type TagScope } from "@cellfleet/contract";

// What a tag-limited person's socket receives of the domain's messages (ADR 041). Device pushes
// carry each router's tags, so they are cut by them. The other kinds name routers by id (collects,
// alerts, remote sessions, executions) or are commands about many routers: they are cut by what the
// socket knows of its scope (`ScopeView`: its routers' ids, the commands found within it).

/** Messages a tag-limited socket gets as they are: none of them names a router. */
const UNSCOPED_TYPES: ReadonlySet<ServerSocketMessage["type"]> = new Set(["events", "reread", "software"]);

/** What a tag-limited socket knows of its scope when a message reaches it. */
export interface ScopeView {
  /** Whether the socket's views show the router (its list row or page). */
  isShowing(deviceId: string): boolean;
  /** Whether the router lies within the scope, as last read or pushed. */
  hasRouter(deviceId: string): boolean;
  /** Whether the command has no router outside the scope (read for this message). */
  hasCommand(commandId: string): boolean;
}

function tagsOf(item: unknown): readonly string[] {
  const tags = (item as { tags?: unknown } | null)?.tags;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === "string") : [];
}

/** The item's id, or (`field`) the id of the router it names, "" when it names none. */
export function idOf(item: unknown, field: "_id" | "device_id" | "device" | "command_id" = "_id"): string {
  const value = (item as Record<string, unknown> | null)?.[field];
  if (field === "device") return idOf(value);
  return typeof value === "string" ? value : "";
}

/** Whether a device push item lies within the scope (by the tags it carries). */
export function isDeviceWithin(scope: TagScope, item: unknown): boolean {
  return isWithinTagScope(scope, tagsOf(item));
}

function scopeDevices(
  message: Extract<ServerSocketMessage, { type: "devices" }>,
  scope: TagScope,
  view: ScopeView,
): ServerSocketMessage {
  const within = message.content.filter((item) => isDeviceWithin(scope, item));
  const hasLeft =
    message.action !== "delete" &&
    message.content.some((item) => !within.includes(item) && view.isShowing(idOf(item)));
  if (hasLeft) return { type: "reread" };
  // Even with no router of theirs left in it, the message still says the totals may have changed
  // (a tag removed from a router no row shows): a list or dashboard reads its own totals again.
  return within.length === message.content.length ? message : { ...message, content: within };
}

/** The items naming a router within the scope; null when none does (nothing to send). */
function cut(content: unknown[], field: "device_id" | "device", view: ScopeView): unknown[] | null {
  const within = content.filter((item) => view.hasRouter(idOf(item, field)));
  return within.length > 0 ? within : null;
}

/**
 * The message as a socket limited to `scope` may see it, or null when it gets nothing of it. A
 * router this socket shows that has left the scope (a tag removed) turns the message into a
 * `reread`, so the page reads its list again and the router leaves it at once.
 */
export function scopeDomainMessage(
  message: ServerSocketMessage,
  scope: TagScope,
  view: ScopeView,
): ServerSocketMessage | null {
  if (scope.length === 0 || UNSCOPED_TYPES.has(message.type)) return message;
  switch (message.type) {
    case "devices":
      return scopeDevices(message, scope, view);
    case "collects":
    case "alerts": {
      const content = cut(message.content, message.type === "alerts" ? "device" : "device_id", view);
      return content && { type: message.type, content };
    }
    case "peers":
      // The domain's whole list of sessions, which the page replaces its own with: theirs, even when none.
      return {
        type: "peers",
        content: message.content.filter((item) => view.hasRouter(idOf(item, "device_id"))),
      };
    case "approval": {
      const content = message.content.filter((item) => view.hasCommand(idOf(item)));
      return content.length > 0 ? { type: "approval", content } : null;
    }
    case "commands": {
      const commands = message.content.commands.filter((item) => view.hasCommand(idOf(item)));
      const executions = message.content.executions.filter((item) => view.hasRouter(idOf(item, "device")));
      return commands.length + executions.length > 0
        ? { type: "commands", content: { commands, executions } }
        : null;
    }
    case "notifications": {
      // In-app items name their routers (ADR 041): those about none, or about theirs alone.
      const content = message.content.filter((item) => {
        const named = (item as { device_ids?: unknown } | null)?.device_ids;
        return !Array.isArray(named) || named.every((id) => view.hasRouter(String(id)));
      });
      return content.length > 0 ? { type: "notifications", content } : null;
    }
    default:
      return null;
  }
}

/** The command ids a message names, to be read against the scope before it is cut. */
export function commandIdsOf(message: ServerSocketMessage): string[] {
  if (message.type === "approval") return message.content.map((item) => idOf(item));
  if (message.type === "commands") return message.content.commands.map((item) => idOf(item));
  return [];
}
