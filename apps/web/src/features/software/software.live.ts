import {
  type LatestRollout,
  newerRollout,
  type SoftwareRule,
  type SoftwareSocketContent,
  SoftwareSocketMessageSchema,
} from "@cellfleet/contract";
import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useRealtime } from "../../app/realtime/useRealtime";
import { softwareKeys } from "./keys";

// The software screens kept live by the socket's `software` message (issue 16, ADR 021): the
// server pushes a rule after each change (its fetch status included) and a rollout's whole progress
// after each advance that changed it. Pushes lost while the socket was down are made good by the
// re-read of every query on reconnect (app/realtime); while it is down the screens poll slowly.

/** The later of two reads of a rule (pushes may arrive out of order); the pushed one on a tie. */
function newerRule(current: SoftwareRule | undefined, incoming: SoftwareRule): SoftwareRule {
  return current && current.update_time > incoming.update_time ? current : incoming;
}

/** A cached list with pushed rules replaced in place and deleted ones dropped; `hasNew`: a pushed rule it lacks. */
export function mergeRules(
  rows: readonly SoftwareRule[],
  content: Pick<SoftwareSocketContent, "rules" | "deleted">,
): { rows: SoftwareRule[]; hasNew: boolean } {
  const pushed = new Map(content.rules.map((rule) => [rule._id, rule]));
  const deleted = new Set(content.deleted);
  const known = new Set(rows.map((rule) => rule._id));
  return {
    rows: rows
      .filter((rule) => !deleted.has(rule._id))
      .map((rule) => {
        const next = pushed.get(rule._id);
        return next ? newerRule(rule, next) : rule;
      }),
    hasNew: content.rules.some((rule) => !known.has(rule._id)),
  };
}

/**
 * A push that lands while its query is being read: the answer under way may have left the server
 * before the change (a page's first read of a rule whose fetch turns Ready meanwhile) and would
 * overwrite the push when it lands, with no push after it. That read is cancelled and made again.
 */
function rereadIfUnderWay(queryClient: QueryClient, queryKey: readonly unknown[]): void {
  if (queryClient.isFetching({ queryKey, exact: true }) === 0) return;
  // With data a new read cancels the one under way; a first read (no data) it would only join.
  const isFirstRead = queryClient.getQueryData(queryKey) === undefined;
  const cancelled = isFirstRead ? queryClient.cancelQueries({ queryKey, exact: true }) : Promise.resolve();
  void cancelled.then(() => queryClient.invalidateQueries({ queryKey, exact: true, refetchType: "all" }));
}

/** Applies one push to the cached list, rules and newest rollouts; a rule new to the list re-reads it (its place is the server's order). */
export function applySoftwarePush(queryClient: QueryClient, content: SoftwareSocketContent): void {
  for (const rule of content.rules) {
    queryClient.setQueryData<SoftwareRule>(softwareKeys.rule(rule._id), (old) =>
      old ? newerRule(old, rule) : old,
    );
    rereadIfUnderWay(queryClient, softwareKeys.rule(rule._id));
  }
  if (content.rules.length > 0 || content.deleted.length > 0)
    rereadIfUnderWay(queryClient, softwareKeys.list());
  let hasNew = false;
  queryClient.setQueryData<SoftwareRule[]>(softwareKeys.list(), (rows) => {
    if (!rows) return rows;
    const merged = mergeRules(rows, content);
    hasNew = merged.hasNew;
    return merged.rows;
  });
  if (hasNew) void queryClient.invalidateQueries({ queryKey: softwareKeys.list(), exact: true });
  for (const id of content.deleted)
    void queryClient.invalidateQueries({ queryKey: softwareKeys.rule(id), exact: true });
  for (const rollout of content.rollouts) {
    queryClient.setQueryData<LatestRollout>(softwareKeys.rollout(rollout.rule_id), (old) =>
      old ? { rollout: newerRollout(old.rollout, rollout) } : old,
    );
    rereadIfUnderWay(queryClient, softwareKeys.rollout(rollout.rule_id));
  }
}

/** Keeps the cached software rules and rollouts live from the socket while the component is mounted. */
export function useLiveSoftware(): void {
  const queryClient = useQueryClient();
  useRealtime("software", (message) => {
    const parsed = SoftwareSocketMessageSchema.safeParse(message);
    if (parsed.success) applySoftwarePush(queryClient, parsed.data.content);
  });
}
