import { isWithinTagScope, type ServerSocketMessage, type TagScope } from "@cellfleet/contract";

// What a tag-limited person's socket receives of the domain's messages (ADR 041). Device pushes
// carry each router's tags, so they are cut to the person's routers here. The other kinds name
// routers without their tags (collects, alerts, commands, approvals, remote sessions); they are not
// sent to a tag-limited socket, whose pages read them over HTTP, where the scope applies.

/** Messages a tag-limited socket gets as they are: none of them names a router. */
const UNSCOPED_TYPES: ReadonlySet<ServerSocketMessage["type"]> = new Set(["events", "reread", "software"]);

function tagsOf(item: unknown): readonly string[] {
  const tags = (item as { tags?: unknown } | null)?.tags;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === "string") : [];
}

function idOf(item: unknown): string {
  return String((item as { _id?: unknown } | null)?._id ?? "");
}

/**
 * The message as a socket limited to `scope` may see it, or null when it gets nothing of it. A
 * router this socket shows that has left the scope (a tag removed) turns the message into a
 * `reread`, so the page reads its list again and the router leaves it at once.
 */
export function scopeDomainMessage(
  message: ServerSocketMessage,
  scope: TagScope,
  isShowing: (deviceId: string) => boolean,
): ServerSocketMessage | null {
  if (scope.length === 0) return message;
  if (UNSCOPED_TYPES.has(message.type)) return message;
  if (message.type !== "devices") return null;
  const within = message.content.filter((item) => isWithinTagScope(scope, tagsOf(item)));
  const hasLeft =
    message.action !== "delete" &&
    message.content.some((item) => !within.includes(item) && isShowing(idOf(item)));
  if (hasLeft) return { type: "reread" };
  // Even with no router of theirs left in it, the message still says the totals may have changed
  // (a tag removed from a router no row shows): a list or dashboard reads its own totals again.
  return within.length === message.content.length ? message : { ...message, content: within };
}
