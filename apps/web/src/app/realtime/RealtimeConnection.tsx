import { useEffect } from "react";
import { useSession } from "../session/useSession";

// The socket client parses the contract's zod protocol schemas: fetched once someone is signed in,
// so the signed-out pages (/login) do not load it (ADR 018).
const loadRealtime = () => import("./realtime").then((module) => module.realtime);

/** Keeps the socket open while someone is signed in, and closed otherwise. Renders nothing. */
export function RealtimeConnection() {
  const token = useSession()?.token ?? null;
  useEffect(() => {
    let isCurrent = true;
    if (token) {
      void loadRealtime().then((realtime) => {
        if (isCurrent) realtime.start(token);
      });
    } else {
      void loadRealtime().then((realtime) => realtime.stop());
    }
    return () => {
      isCurrent = false;
    };
  }, [token]);
  useEffect(
    () => () => {
      void loadRealtime().then((realtime) => realtime.stop());
    },
    [],
  );
  return null;
}
