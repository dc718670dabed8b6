import { useEffect } from "react";
import { useApprovalNotices } from "./approvalNotices";
import { useHasUnreadEvents } from "./unread.queries";

/**
 * Reports whether the domain has unread events and says 'Your action is required' when a command
 * waits for this person's approval; its own chunk, rendered only for a signed-in user.
 */
export function UnreadEventsWatch({ onChange }: { onChange: (hasUnread: boolean) => void }) {
  const hasUnread = useHasUnreadEvents();
  useApprovalNotices();
  useEffect(() => onChange(hasUnread), [hasUnread, onChange]);
  return null;
}
