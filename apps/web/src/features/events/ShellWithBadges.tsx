import { AppShell } from "../../app/layout/AppShell";
import { useApprovalNotices } from "../commands/commands.queries";
import { useHasUnreadEvents } from "./events.queries";

/** The app shell with its menu badges: 'new' on Events while the domain has unread events. */
export function ShellWithBadges() {
  const hasUnread = useHasUnreadEvents();
  useApprovalNotices();
  return <AppShell badges={{ events: hasUnread }} />;
}
