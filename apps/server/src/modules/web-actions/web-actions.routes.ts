import {
  WebActionsAnswerSchema,
  WebActionsExportRequestSchema,
  WebActionsRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES } from "../../platform/http/schemas";
import { exportWebActions, listWebActions } from "./web-actions.service";

/** The audit log: superusers read all of it, admins their domain's. */
export const webActionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/web_actions/",
    {
      schema: {
        tags: ["web actions"],
        summary: "Audit log entries, newest first (JSON)",
        body: WebActionsRequestSchema.nullish(),
        response: { 200: WebActionsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "logs.view" },
    },
    async (request) => ({
      items: await listWebActions(
        ctx,
        requireSession(request),
        request.body ?? WebActionsRequestSchema.parse({}),
      ),
    }),
  );

  app.post(
    "/web_actions/export",
    {
      schema: {
        tags: ["web actions"],
        summary: "The filtered audit log as CSV (web_actions.csv)",
        body: WebActionsExportRequestSchema.nullish(),
        response: { 200: z.string(), ...ERROR_RESPONSES },
      },
      config: { permission: "logs.view" },
    },
    async (request, reply) => {
      const csv = await exportWebActions(ctx, requireSession(request), request.body ?? {});
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="web_actions.csv"')
        .send(csv);
    },
  );
};
