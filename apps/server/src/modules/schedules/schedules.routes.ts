import {
  ScheduleRuleActiveRequestSchema,
  ScheduleRuleAnswerSchema,
  ScheduleRuleInputSchema,
  ScheduleRulesAnswerSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  createScheduleRule,
  getScheduleRule,
  listScheduleRules,
  setScheduleRuleActive,
  updateScheduleRule,
} from "./schedules.service";

const TAGS = ["crontab"];
// The class is checked by the service, so an unknown one is UNSUPPORTED_TASK_TYPE (spec section 8).
const ClassParamsSchema = z.object({ class: z.string().min(1).max(32) });
const RuleParamsSchema = ClassParamsSchema.extend({ id: z.string().min(1).max(64) });

/** The crontab calls (spec section 7): backup and journal schedule rules, for admins only. */
export const schedulesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/crontab/all",
    {
      schema: {
        tags: TAGS,
        summary: "The domain's backup and journal rules",
        body: TokenOnlyBodySchema,
        response: { 200: ScheduleRulesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "crontab.view" },
    },
    async (request) => ({ items: await listScheduleRules(ctx, requireSession(request)) }),
  );

  app.post(
    "/crontab/:class/:id",
    {
      schema: {
        tags: TAGS,
        summary: "One rule (the /{class}/task/{id} screen)",
        params: RuleParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: ScheduleRuleAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "crontab.view" },
    },
    async (request) => ({
      item: await getScheduleRule(ctx, requireSession(request), request.params.class, request.params.id),
    }),
  );

  app.post(
    "/crontab/:class",
    {
      schema: {
        tags: TAGS,
        summary: "Add a rule; its first occurrence is queued",
        params: ClassParamsSchema,
        body: ScheduleRuleInputSchema,
        response: { 200: ScheduleRuleAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "crontab.manage" },
    },
    async (request) => ({
      item: await createScheduleRule(ctx, requireSession(request), request.params.class, request.body),
    }),
  );

  app.put(
    "/crontab/:class/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Replace a rule; its next occurrence is worked out again",
        params: RuleParamsSchema,
        body: ScheduleRuleInputSchema,
        response: { 200: ScheduleRuleAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "crontab.manage" },
    },
    async (request) => ({
      item: await updateScheduleRule(
        ctx,
        requireSession(request),
        request.params.class,
        request.params.id,
        request.body,
      ),
    }),
  );

  app.patch(
    "/crontab/:class/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Switch a rule on or off",
        params: RuleParamsSchema,
        body: ScheduleRuleActiveRequestSchema,
        response: { 200: ScheduleRuleAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "crontab.manage" },
    },
    async (request) => ({
      item: await setScheduleRuleActive(
        ctx,
        requireSession(request),
        request.params.class,
        request.params.id,
        request.body.active,
      ),
    }),
  );
};
