import type { SessionUser } from "@cellfleet/contract";
import { useSyncExternalStore } from "react";
import { sessionStore } from "./sessionStore";

/** The signed-in user, or null; re-renders when the session changes. */
export function useSession(): SessionUser | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
}
