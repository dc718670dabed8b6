import {
  type ScheduleClass,
  type ScheduleRule,
  ScheduleRuleAnswerSchema,
  type ScheduleRuleInput,
  ScheduleRulesAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiRequest } from "../../../app/api/http";
import { schedulesKeys } from "./keys";

/** POST /api/crontab/all: every backup and journal rule of the domain. */
export function scheduleRulesQueryOptions() {
  return queryOptions({
    queryKey: schedulesKeys.list(),
    queryFn: async ({ signal }) =>
      (await apiRequest("POST /api/crontab/all", { body: {}, schema: ScheduleRulesAnswerSchema, signal }))
        .items,
  });
}

/** POST /api/crontab/{class}/{id}: one rule. */
export function scheduleRuleQueryOptions(type: ScheduleClass, id: string) {
  return queryOptions({
    queryKey: schedulesKeys.rule(type, id),
    queryFn: async ({ signal }) =>
      (
        await apiRequest("POST /api/crontab/{class}/{id}", {
          params: { class: type, id },
          body: {},
          schema: ScheduleRuleAnswerSchema,
          signal,
        })
      ).item,
  });
}

/** Adds (id null) or replaces a rule; errors are shown by the form. */
export function useSaveScheduleRule(type: ScheduleClass, id: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ScheduleRuleInput): Promise<ScheduleRule> =>
      (id
        ? await apiRequest("PUT /api/crontab/{class}/{id}", {
            params: { class: type, id },
            body,
            schema: ScheduleRuleAnswerSchema,
            quiet: true,
          })
        : await apiRequest("POST /api/crontab/{class}", {
            params: { class: type },
            body,
            schema: ScheduleRuleAnswerSchema,
            quiet: true,
          })
      ).item,
    onSuccess: (rule) => {
      queryClient.setQueryData(schedulesKeys.rule(rule.type, rule._id), rule);
      return queryClient.invalidateQueries({ queryKey: schedulesKeys.list() });
    },
  });
}

/** PATCH /api/crontab/{class}/{id}: the table's switch; the list is read again whatever the outcome. */
export function useSetScheduleRuleActive() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, id, active }: { type: ScheduleClass; id: string; active: boolean }) =>
      apiRequest("PATCH /api/crontab/{class}/{id}", {
        params: { class: type, id },
        body: { active },
        schema: ScheduleRuleAnswerSchema,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: schedulesKeys.all }),
  });
}
