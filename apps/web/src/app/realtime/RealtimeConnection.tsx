import { useEffect } from "react";
import { useSession } from "../session/useSession";
import { realtime } from "./realtime";

/** Keeps the socket open while someone is signed in, and closed otherwise. Renders nothing. */
export function RealtimeConnection() {
  const token = useSession()?.token ?? null;
  useEffect(() => {
    if (token) realtime.start(token);
    else realtime.stop();
  }, [token]);
  useEffect(() => () => realtime.stop(), []);
  return null;
}
