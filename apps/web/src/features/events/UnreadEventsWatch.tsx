import { useEffect } from "react";
import { useHasUnreadEvents } from "./events.queries";

/** Reports whether the domain has unread events; its own chunk, rendered only for a signed-in user. */
export function UnreadEventsWatch({ onChange }: { onChange: (hasUnread: boolean) => void }) {
  const hasUnread = useHasUnreadEvents();
  useEffect(() => onChange(hasUnread), [hasUnread, onChange]);
  return null;
}
