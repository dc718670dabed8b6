import { type Rule, type RuleFields, RuleListAnswerSchema, RuleSchema } from "@cellfleet/contract";
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../app/api/http";
import { notificationsKeys } from "./keys";

/** POST /api/notifications/rules: the rules with the card's counts. */
export function ruleListQueryOptions(search: string) {
  return queryOptions({
    queryKey: notificationsKeys.ruleList(search),
    queryFn: ({ signal }) =>
      apiRequest("POST /api/notifications/rules", {
        body: search ? { search } : {},
        schema: RuleListAnswerSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

/** POST /api/notifications/rule/{id}: one rule. */
export function ruleQueryOptions(id: string) {
  return queryOptions({
    queryKey: notificationsKeys.rule(id),
    queryFn: ({ signal }) =>
      apiRequest("POST /api/notifications/rule/{id}", {
        params: { id },
        body: {},
        schema: RuleSchema,
        signal,
      }),
  });
}

/** Refreshes every rule list and page (and the provider list, whose rule counts change). */
function useInvalidateRules() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: notificationsKeys.rules() }),
      queryClient.invalidateQueries({ queryKey: notificationsKeys.transports() }),
    ]);
}

/** Creates (id null) or changes a rule; errors are shown by the form beside its fields. */
export function useSaveRule(id: string | null) {
  const invalidate = useInvalidateRules();
  return useMutation({
    mutationFn: (body: RuleFields): Promise<Rule> =>
      id
        ? apiRequest("PUT /api/notifications/rule/{id}", {
            params: { id },
            body,
            schema: RuleSchema,
            quiet: true,
          })
        : apiRequest("POST /api/notifications/rule/new", { body, schema: RuleSchema, quiet: true }),
    onSuccess: invalidate,
  });
}

/** PATCH /api/notifications/rule/{id}: the list's toggle. */
export function useToggleRule() {
  const invalidate = useInvalidateRules();
  return useMutation({
    mutationFn: ({ id, active }: { id: string; active: boolean }) =>
      apiRequest("PATCH /api/notifications/rule/{id}", {
        params: { id },
        body: { active },
        schema: RuleSchema,
      }),
    onSuccess: invalidate,
  });
}

/** DELETE /api/notifications/rule/{id}. */
export function useDeleteRule() {
  const invalidate = useInvalidateRules();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest("DELETE /api/notifications/rule/{id}", {
        params: { id },
        body: {},
        schema: z.object({ ok: z.literal(true) }),
      }),
    onSuccess: invalidate,
  });
}
