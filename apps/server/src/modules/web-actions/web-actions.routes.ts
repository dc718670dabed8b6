import {
  WEB_ACTIONS_CSV_COLUMNS,
  WebActionsAnswerSchema,
  WebActionsExportRequestSchema,
  WebActionsRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { ERROR_RESPONSES } from "../../platform/http/schemas";
import { exportWebActionsRows, listWebActions } from "./web-actions.service";

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

  registerCsvExport(app, "logs", {
    body: WebActionsExportRequestSchema,
    summary: "The filtered audit log, newest first",
    columns: WEB_ACTIONS_CSV_COLUMNS,
    rows: (session, request) => exportWebActionsRows(ctx, session, request),
  });
};
