import { useSyncExternalStore } from "react";

/** How often the console's one clock moves on: relative times count whole minutes (spec section 9). */
export const CLOCK_TICK_MS = 30_000;

// One clock for the whole console (issue 27 item 8): every relative time ("3 min ago"), stale mark
// and "since" reads the same moment and moves on at the same tick, instead of each list keeping an
// interval of its own from the moment it mounted. A tab brought back to the front reads the time at
// once: browsers slow or stop the timers of hidden tabs, which left lists saying "just now" of rows
// long past.

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function tick(): void {
  now = Date.now();
  for (const listener of listeners) listener();
}

function handleVisibility(): void {
  if (document.visibilityState === "visible") tick();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (timer === null) {
    // The first reader after a quiet spell: the stored moment may be old (React reads it again).
    now = Date.now();
    timer = setInterval(tick, CLOCK_TICK_MS);
    document.addEventListener("visibilitychange", handleVisibility);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0 || timer === null) return;
    clearInterval(timer);
    timer = null;
    document.removeEventListener("visibilitychange", handleVisibility);
  };
}

const readNow = () => now;

/** The console's current time in ms: one shared clock, moved on every CLOCK_TICK_MS and when the tab shows again. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, readNow, readNow);
}
