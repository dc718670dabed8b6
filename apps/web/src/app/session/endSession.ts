import { sessionStore } from "./sessionStore";

/**
 * What else forgets the session's data when it ends: the console's query cache registers itself
 * here (queryClient.ts) once loaded, so the signed-out start does not load TanStack Query (ADR 018).
 */
const onEndHandlers = new Set<() => void>();

export function onSessionEnd(handler: () => void): void {
  onEndHandlers.add(handler);
}

/**
 * Ends the session on this side: forgets the user and token and drops every cached query
 * (spec section 4: logout clears all cached lists and the token). The route guard then sends
 * the visitor to /login. Answers whether a session was open.
 */
export function endSession(): boolean {
  const wasSignedIn = sessionStore.get() !== null;
  sessionStore.clear();
  queueMicrotask(() => {
    for (const handler of onEndHandlers) handler();
  });
  return wasSignedIn;
}
