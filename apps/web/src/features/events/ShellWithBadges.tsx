import { lazy, Suspense, useState } from "react";
import { AppShell } from "../../app/layout/AppShell";
import { useSession } from "../../app/session/useSession";

// The unread-events query parses the contract's zod event schemas: fetched for a signed-in user only,
// so /login does not load it (ADR 018).
const UnreadEventsWatch = lazy(async () => ({
  default: (await import("./UnreadEventsWatch")).UnreadEventsWatch,
}));

/** The app shell with its menu badges: 'new' on Events while the domain has unread events. */
export function ShellWithBadges() {
  const user = useSession();
  const [hasUnread, setHasUnread] = useState(false);
  return (
    <>
      {user ? (
        <Suspense fallback={null}>
          <UnreadEventsWatch onChange={setHasUnread} />
        </Suspense>
      ) : null}
      <AppShell badges={{ events: user !== null && hasUnread }} />
    </>
  );
}
