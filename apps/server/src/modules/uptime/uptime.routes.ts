import { UptimeReportRequestSchema, UptimeReportSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { ERROR_RESPONSES, TokenFieldSchema } from "../../platform/http/schemas";
import { exportUptimeRows, readUptimeReport, UPTIME_CSV_COLUMNS } from "./uptime.service";

const UptimeBodySchema = UptimeReportRequestSchema.extend({ token: TokenFieldSchema });

/** Uptime (SLA) reports (issue 31, ADR 044): on screen as JSON, and as CSV through the export mechanism. */
export const uptimeRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/uptime",
    {
      schema: {
        tags: ["uptime"],
        summary:
          "Uptime of the domain's routers (all, a tag's or one) over a month of the domain's time zone: connected time, outages, backup SIM, signal, data per SIM, firmware flashes",
        body: UptimeBodySchema,
        response: { 200: UptimeReportSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "uptime.view" },
    },
    async (request) => readUptimeReport(ctx, requireSession(request), request.body),
  );

  registerCsvExport(app, "uptime", {
    body: UptimeBodySchema,
    summary: "The uptime report, a line per router and one for them together",
    columns: UPTIME_CSV_COLUMNS,
    rows: (session, body) => exportUptimeRows(ctx, session, body),
  });
};
