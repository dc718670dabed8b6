import { queryClient } from "../queryClient";
import { sessionStore } from "./sessionStore";

/**
 * Ends the session on this side: forgets the user and token and drops every cached query
 * (spec section 4: logout clears all cached lists and the token). The route guard then sends
 * the visitor to /login. Answers whether a session was open.
 */
export function endSession(): boolean {
  const wasSignedIn = sessionStore.get() !== null;
  sessionStore.clear();
  queueMicrotask(() => queryClient.clear());
  return wasSignedIn;
}
