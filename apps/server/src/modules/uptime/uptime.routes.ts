import {
  UptimeMailRuleAnswerSchema,
  UptimeMailRuleInputSchema,
  UptimeMailRulesAnswerSchema,
  UptimePdfRequestSchema,
  UptimeReportRequestSchema,
  UptimeReportSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { tagScopeOf } from "../../platform/auth/permissions";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import {
  ERROR_RESPONSES,
  OkSchema,
  TokenFieldSchema,
  TokenOnlyBodySchema,
} from "../../platform/http/schemas";
import { requireDeviceDomain } from "../devices/devices.service";
import { renderUptimeDocument } from "./uptime.document";
import { exportUptimeRows, readUptimeReport, UPTIME_CSV_COLUMNS } from "./uptime.service";
import { createUptimeMailRule, deleteUptimeMailRule, listUptimeMailRules } from "./uptime-mail.service";

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

  app.post(
    "/uptime/pdf",
    {
      schema: {
        tags: ["uptime"],
        summary:
          "The uptime report as a PDF to send to a customer, in the language asked (rendered on request)",
        body: UptimePdfRequestSchema.extend({ token: TokenFieldSchema }),
        response: { 200: z.unknown().describe("the report (application/pdf)"), ...ERROR_RESPONSES },
      },
      config: { permission: "uptime.view" },
    },
    async (request, reply) => {
      const { language, ...report } = request.body;
      const session = requireSession(request);
      const document = await renderUptimeDocument(
        ctx,
        requireDeviceDomain(session),
        report,
        language,
        tagScopeOf(session),
      );
      return reply
        .type("application/pdf")
        .header("cache-control", "private, no-store")
        .header("content-disposition", `attachment; filename="${encodeURIComponent(document.filename)}"`)
        .send(document.content);
    },
  );

  registerCsvExport(app, "uptime", {
    body: UptimeBodySchema,
    summary: "The uptime report, a line per router and one for them together",
    columns: UPTIME_CSV_COLUMNS,
    rows: (session, body) => exportUptimeRows(ctx, session, body),
  });

  app.post(
    "/uptime/mail-rules",
    {
      schema: {
        tags: ["uptime"],
        summary: "The domain's monthly uptime mails (last month's PDF to customers on the 1st)",
        body: TokenOnlyBodySchema,
        response: { 200: UptimeMailRulesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "crontab.view" },
    },
    async (request) => ({ items: await listUptimeMailRules(ctx, requireSession(request)) }),
  );

  app.post(
    "/uptime/mail-rule",
    {
      schema: {
        tags: ["uptime"],
        summary: "Add a monthly uptime mail; its first occurrence is queued",
        body: UptimeMailRuleInputSchema.extend({ token: TokenFieldSchema }),
        response: { 200: UptimeMailRuleAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "crontab.manage" },
    },
    async (request) => ({ item: await createUptimeMailRule(ctx, requireSession(request), request.body) }),
  );

  app.delete(
    "/uptime/mail-rule/:id",
    {
      schema: {
        tags: ["uptime"],
        summary: "Delete a monthly uptime mail",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "crontab.manage" },
    },
    async (request) => {
      await deleteUptimeMailRule(ctx, requireSession(request), request.params.id);
      return { ok: true as const };
    },
  );
};
