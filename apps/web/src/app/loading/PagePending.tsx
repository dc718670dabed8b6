import { type ReactNode, Suspense, useEffect } from "react";
import { loadingStore } from "./loadingStore";

/**
 * What a page still being fetched (its code and texts) shows: nothing at first, and it counts as a
 * slow request, so the loading bar shows after a second (spec section 9) instead of a blank page
 * under load (issue 27 item 15).
 */
export function PagePending({ children = null }: { children?: ReactNode }) {
  useEffect(() => loadingStore.track(), []);
  return children;
}

/** Suspense whose fallback is {@link PagePending}: the loading bar after a second while the part loads. */
export function PageSuspense({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PagePending />}>{children}</Suspense>;
}
