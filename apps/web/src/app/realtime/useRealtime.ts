import type { SocketMessageType } from "@cellfleet/contract";
import { useEffect, useRef } from "react";
import type { RealtimeHandler } from "./RealtimeClient";
import { realtime } from "./realtime";

/** Calls `handler` for every socket message of `type` while the component is mounted. */
export function useRealtime(type: SocketMessageType | (string & {}), handler: RealtimeHandler): void {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => realtime.subscribe(type, (message) => latest.current(message)), [type]);
}
