import { type Command, canApprove } from "@cellfleet/contract";
import { useQueryClient } from "@tanstack/react-query";
import { pushInfoMessage } from "../../app/messages/messageStore";
import { notice } from "../../app/messages/texts";
import { eventsKeys } from "../../app/queryKeys/events";
import { useRealtime } from "../../app/realtime/useRealtime";
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
    const isMine = content.some(
      (command) => command.status === "unapproved" && user !== null && canApprove(user, command.author),
    );
    if (isMine) pushInfoMessage({ level: "warning", text: notice("actionRequired"), link: "/events" });
  });
}
