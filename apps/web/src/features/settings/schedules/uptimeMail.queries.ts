import {
  type UptimeMailRule,
  UptimeMailRuleAnswerSchema,
  type UptimeMailRuleInput,
  UptimeMailRulesAnswerSchema,
} from "@cellfleet/contract";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { apiRequest } from "../../../app/api/http";
import { schedulesKeys } from "./keys";

/** POST /api/uptime/mail-rules: the domain's monthly uptime mails. */
export function uptimeMailRulesQueryOptions() {
  return queryOptions({
    queryKey: schedulesKeys.uptimeMail(),
    queryFn: async ({ signal }) =>
      (
        await apiRequest("POST /api/uptime/mail-rules", {
          body: {},
          schema: UptimeMailRulesAnswerSchema,
          signal,
        })
      ).items,
  });
}

/** Adds a monthly uptime mail; errors are shown by the dialog. */
export function useCreateUptimeMailRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: UptimeMailRuleInput): Promise<UptimeMailRule> =>
      (
        await apiRequest("POST /api/uptime/mail-rule", {
          body,
          schema: UptimeMailRuleAnswerSchema,
          quiet: true,
        })
      ).item,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: schedulesKeys.uptimeMail() }),
  });
}

/** DELETE /api/uptime/mail-rule/{id}; the list is read again whatever the outcome. */
export function useDeleteUptimeMailRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest("DELETE /api/uptime/mail-rule/{id}", {
        params: { id },
        schema: z.object({ ok: z.literal(true) }),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: schedulesKeys.uptimeMail() }),
  });
}
