import { useSyncExternalStore } from "react";

/** A request slower than this shows the loading bar (spec section 9: loading bar after 1 s). */
export const LOADING_BAR_DELAY_MS = 1000;

type Listener = () => void;

let slowRequests = 0;
const flags = new Set<string>();
let visible = false;
const listeners = new Set<Listener>();

function update(): void {
  const next = slowRequests > 0 || flags.size > 0;
  if (next === visible) return;
  visible = next;
  for (const listener of listeners) listener();
}

/** Global loading state: requests running over a second, and named flags (a reconnecting socket). */
export const loadingStore = {
  isVisible(): boolean {
    return visible;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Call when a request starts; call the answer when it ends. The bar shows only if it outlives the delay. */
  track(delayMs: number = LOADING_BAR_DELAY_MS): () => void {
    let counted = false;
    let done = false;
    const timer = setTimeout(() => {
      if (done) return;
      counted = true;
      slowRequests += 1;
      update();
    }, delayMs);
    return () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (counted) {
        slowRequests -= 1;
        update();
      }
    };
  },
  setFlag(name: string, on: boolean): void {
    if (on) flags.add(name);
    else flags.delete(name);
    update();
  },
};

export function useIsLoading(): boolean {
  return useSyncExternalStore(loadingStore.subscribe, loadingStore.isVisible, loadingStore.isVisible);
}
