import type { TunnelKind, TunnelSession } from "@cellfleet/contract";
import { type QueryClient, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { useRealtime } from "../../app/realtime/useRealtime";
import { tunnelsKeys } from "./keys";
import { decideTunnel, getTunnels, openWebTunnel, requestTunnel } from "./tunnels.api";

/** The domain's remote-access sessions. */
export function tunnelsQueryOptions() {
  return queryOptions({
    queryKey: tunnelsKeys.list(),
    queryFn: ({ signal }) => getTunnels(signal).then((answer) => answer.items),
  });
}

/**
 * Puts a `peers` message's list in place. A fetch of the list still under way read the sessions
 * before this change was sent, so it is cancelled first: answering later, it would put the older
 * state back (a web session shown "approved" for good once its router had dialled in).
 */
export async function applyPeers(queryClient: QueryClient, sessions: TunnelSession[]): Promise<void> {
  await queryClient.cancelQueries({ queryKey: tunnelsKeys.list() });
  queryClient.setQueryData(tunnelsKeys.list(), sessions);
}

/** Keeps the list as the `peers` socket message says (spec §7): every change of a session pushes it. */
export function usePeersLive(): void {
  const queryClient = useQueryClient();
  useRealtime("peers", (message) => {
    const content = (message as { content?: TunnelSession[] }).content;
    if (Array.isArray(content)) void applyPeers(queryClient, content);
  });
}

/** Asks for a session on a router: its terminal or its web interface. */
export function useRequestTunnel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { deviceId: string; kind: TunnelKind }) =>
      requestTunnel({ device_id: input.deviceId, kind: input.kind, minutes: 30 }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.list() }),
  });
}

/** Opens an approved web session: its link, for a tab of its own. */
export function useOpenWebTunnel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => openWebTunnel(id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tunnelsKeys.list() }),
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
