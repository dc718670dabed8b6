import { SOCKET_TIMEOUT_MS } from "@cellfleet/contract";
import { loadingStore } from "../loading/loadingStore";
import { pushInfoMessage } from "../messages/messageStore";
import { translateErrorCode } from "../messages/texts";
import { queryClient } from "../queryClient";
import { endSession } from "../session/endSession";
import { RealtimeClient } from "./RealtimeClient";

function socketUrl(): string {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  return `${scheme}://${window.location.host}/api/ws/`;
}

/** The one realtime connection of this tab. */
export const realtime = new RealtimeClient({
  url: socketUrl,
  timeoutMs: SOCKET_TIMEOUT_MS,
  setLoading: (on) => loadingStore.setFlag("realtime", on),
  // Messages pushed before `ready` are lost to this tab: on a reconnect those of the time the socket
  // was down, on the first connection those between a page's read and `ready` (the server hands a new
  // view the rows changed lately only if its node kept them, ADR 035 item 8; events and commands not
  // at all). Every open list and page reads again; an answer that did not change renders nothing new.
  onReady: () => void queryClient.invalidateQueries(),
  // The server dropped changes this tab did not take in time (ADR 035): the same.
  onReread: () => void queryClient.invalidateQueries(),
  onSessionEnded: (code) => {
    if (endSession()) pushInfoMessage({ level: "critical", text: translateErrorCode(code, code) });
  },
});
