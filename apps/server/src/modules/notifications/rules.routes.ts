import {
  RuleActiveSchema,
  RuleFieldsSchema,
  RuleListAnswerSchema,
  RuleListRequestSchema,
  RuleSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { exportRulesRows, RULE_CSV_COLUMNS } from "./rules.export";
import { createRule, deleteRule, getRule, listRules, setRuleActive, updateRule } from "./rules.service";

const RuleIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
const TAGS = ["notifications"];

/** Notification rules (spec sections 2 and 7): the list, one rule, create, change, toggle, delete. */
export const rulesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/notifications/rules",
    {
      schema: {
        tags: TAGS,
        summary: "Rules with the total and active counts (empty without the notification plugin)",
        body: RuleListRequestSchema.nullish(),
        response: { 200: RuleListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.list" },
    },
    async (request) => listRules(ctx, requireSession(request), request.body ?? {}),
  );

  registerCsvExport(app, "rules", {
    body: RuleListRequestSchema,
    summary: "The rules the list shows for the same search, by name",
    columns: RULE_CSV_COLUMNS,
    rows: (session, request) => exportRulesRows(ctx, session, request),
  });

  app.post(
    "/notifications/rule/new",
    {
      schema: {
        tags: TAGS,
        summary: "Create a rule, or save a draft",
        body: RuleFieldsSchema,
        response: { 200: RuleSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "notifications.edit" },
    },
    async (request) => createRule(ctx, requireSession(request), request.body),
  );

  app.post(
    "/notifications/rule/:id",
    {
      schema: {
        tags: TAGS,
        summary: "One rule",
        params: RuleIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: RuleSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.view" },
    },
    async (request) => getRule(ctx, requireSession(request), request.params.id),
  );

  app.put(
    "/notifications/rule/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Change every field of a rule (or of a draft)",
        params: RuleIdParamsSchema,
        body: RuleFieldsSchema,
        response: { 200: RuleSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "notifications.edit" },
    },
    async (request) => updateRule(ctx, requireSession(request), request.params.id, request.body),
  );

  app.patch(
    "/notifications/rule/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Switch a rule on or off (the list's toggle)",
        params: RuleIdParamsSchema,
        body: RuleActiveSchema,
        response: { 200: RuleSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "notifications.edit" },
    },
    async (request) => setRuleActive(ctx, requireSession(request), request.params.id, request.body.active),
  );

  app.delete(
    "/notifications/rule/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Delete a rule",
        params: RuleIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "notifications.edit" },
    },
    async (request) => {
      await deleteRule(ctx, requireSession(request), request.params.id);
      return { ok: true as const };
    },
  );
};
