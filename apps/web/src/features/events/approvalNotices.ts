import { type Command, canApprove } from "@cellfleet/contract";
import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../app/api/http";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { commandsKeys, eventsKeys } from "../../app/queryKeys";
import { useRealtime } from "../../app/realtime/useRealtime";
import { useOffers } from "../../app/session/useOffers";
import { useSession } from "../../app/session/useSession";

// Apart from the command reads: the signed-in shell runs it on every page (ADR 026).

/**
 * 'Your action is required' (spec section 8), linking to /events, when the socket announces a
 * command waiting for a decision this person may make (never the author's own).
 */
export function useApprovalNotices(): void {
  const user = useSession();
  const queryClient = useQueryClient();
  useRealtime("approval", (message) => {
    const content = (message as { content?: Command[] }).content ?? [];
    void queryClient.invalidateQueries({ queryKey: eventsKeys.all });
    void queryClient.invalidateQueries({ queryKey: commandsKeys.waiting() });
    const isMine = content.some(
      (command) => command.status === "unapproved" && user !== null && canApprove(user, command.author),
    );
    if (isMine) pushInfoMessage({ level: "warning", text: notice("actionRequired"), link: "/events" });
  });
}

/**
 * How many commands wait for a decision this person may make (issue 27: the bell said "0 new" with
 * two waiting). Read only by those who may approve; kept current by the socket's `approval` message,
 * which the shell's watcher above turns into a re-read.
 */
export function useWaitingApprovals(): number {
  const offers = useOffers();
  const isApprover = offers("commands.approve");
  const query = useQuery({ ...waitingApprovalsQueryOptions(), enabled: isApprover });
  return isApprover ? (query.data?.count ?? 0) : 0;
}

/** POST /api/commands/waiting: the server's checked answer, taken as the contract's type (ADR 026). */
function waitingApprovalsQueryOptions() {
  return queryOptions({
    queryKey: commandsKeys.waiting(),
    queryFn: ({ signal }) => apiRequest("POST /api/commands/waiting", { body: {}, signal }),
  });
}
