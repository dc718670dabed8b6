import type { SocketMessageType, SocketView } from "@cellfleet/contract";
import { useEffect, useRef, useSyncExternalStore } from "react";
import type { RealtimeHandler } from "./RealtimeClient";
import { realtime } from "./realtime";

/** Calls `handler` for every socket message of `type` while the component is mounted. */
export function useRealtime(type: SocketMessageType | (string & {}), handler: RealtimeHandler): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => realtime.subscribe(type, (message) => latest.current(message)), [type]);
}

const subscribeLive = (listener: () => void) => realtime.onLiveChange(listener);
const readLive = () => realtime.isLive;

/** Whether socket pushes arrive now; a screen that keeps itself live by them polls only while this is false. */
export function useRealtimeLive(): boolean {
  return useSyncExternalStore(subscribeLive, readLive, () => false);
}

/**
 * Tells the socket what this component shows while it is mounted (ADR 035): the server sends
 * changes of that only. Null shows nothing live (yet).
 */
export function useRealtimeView(view: SocketView | null): void {
  // By value: a list's ids are a new array on every render.
  const key = view ? JSON.stringify(view) : null;
  useEffect(() => {
    if (key === null) return;
    const owner = {};
    realtime.setView(owner, JSON.parse(key) as SocketView);
    return () => realtime.setView(owner, null);
  }, [key]);
}
