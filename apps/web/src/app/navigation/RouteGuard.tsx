import { useEffect, useRef } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import { noteNavigation, pushInfoMessage } from "../messages/messageStore";
import { notice } from "../messages/texts";
import { useSession } from "../session/useSession";
import { resolveNavigation } from "./resolveNavigation";

interface Memory {
  /** The last allowed page, where a denied navigation returns to. */
  lastAllowed: string | null;
  lastKey: string | null;
}

/**
 * The one route guard: every page renders through it, and it applies `resolveNavigation` (the
 * contract's route table) to the current location. Pages hold no access code of their own.
 */
export function RouteGuard() {
  const location = useLocation();
  const user = useSession();
  const memory = useRef<Memory>({ lastAllowed: null, lastKey: null });
  const decision = resolveNavigation({
    path: location.pathname,
    user,
    previousPath: memory.current.lastAllowed,
  });
  const href = `${location.pathname}${location.search}${location.hash}`;
  const isDenied = decision.kind === "deny" || (decision.kind === "redirect" && decision.accessDenied);
  const isAllowed = decision.kind === "allow";

  // Once per location: the message belongs to this navigation attempt, not to a re-render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the location on purpose
  useEffect(() => {
    if (isDenied) pushInfoMessage({ level: "warning", text: notice("accessDenied") });
  }, [location.key, isDenied]);

  useEffect(() => {
    if (!isAllowed || memory.current.lastKey === location.key) return;
    memory.current = { lastAllowed: href, lastKey: location.key };
    noteNavigation();
  }, [isAllowed, location.key, href]);

  if (decision.kind === "redirect") return <Navigate to={decision.to} replace />;
  if (decision.kind === "deny") return <Navigate to={decision.stayAt} replace />;
  return <Outlet />;
}
