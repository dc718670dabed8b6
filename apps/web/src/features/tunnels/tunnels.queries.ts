import type { TunnelSession } from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useRealtime } from "../../app/realtime/useRealtime";
import { tunnelsKeys } from "./keys";
import { decideTunnel, getTunnels, requestTunnel } from "./tunnels.api";

/** The domain's remote-access sessions. */
export function tunnelsQueryOptions() {
  return queryOptions({
    queryKey: tunnelsKeys.list(),
    queryFn: ({ signal }) => getTunnels(signal).then((answer) => answer.items),
  });
}

/** Keeps the list as the `peers` socket message says (spec §7): every change of a session pushes it. */
export function usePeersLive(): void {
  const queryClient = useQueryClient();
  useRealtime("peers", (message) => {
    const content = (message as { content?: TunnelSession[] }).content;
    if (Array.isArray(content)) queryClient.setQueryData(tunnelsKeys.list(), content);
  });
}

/** Asks for a terminal session on a router. */
export function useRequestTunnel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deviceId: string) => requestTunnel({ device_id: deviceId, kind: "terminal", minutes: 30 }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.list() }),
  });
}

/** Approves, refuses or ends a session. */
export function useDecideTunnel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { session: TunnelSession; decision: "approve" | "refuse" | "end" }) =>
      decideTunnel(input.session, input.decision),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.list() }),
  });
}
