import {
  CommandDecisionSchema,
  CommandDryRunSchema,
  CommandSchema,
  CommandsRequestSchema,
  CommandTypeSchema,
  CommandTypesAnswerSchema,
  CreateCommandSchema,
  CreateCommandTypeSchema,
  ExecutionSchema,
  ReportsRequestSchema,
  WaitingApprovalsSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { sendNdjson } from "../../platform/http/ndjson";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { createCommand, dryRunCommand, getCommand } from "./actions.service";
import {
  approveCommand,
  cancelCommand,
  declineCommand,
  failedRetryInput,
  listWaitingApprovals,
} from "./approvals.service";
import { COMMAND_CSV_COLUMNS, exportCommandsRows } from "./commands.export";
import {
  createCommandType,
  deleteCommandType,
  getReport,
  listCommands,
  listCommandTypes,
  listReports,
} from "./reports.service";

const NDJSON = z.unknown().describe("application/x-ndjson: one item a line, newest first");
const IdParams = z.object({ command_id: z.string().min(1).max(64) });
const tags = ["commands"];

/** Commands (spec section 7): the list, one command, new ones, approval, cancel, retry; reports; custom types. */
export const actionsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/commands",
    {
      schema: {
        tags,
        summary: "The domain's commands as NDJSON",
        body: CommandsRequestSchema.nullish(),
        response: { 200: NDJSON, ...ERROR_RESPONSES },
      },
      config: { permission: "commands.view" },
    },
    async (request, reply) =>
      sendNdjson(
        request,
        reply,
        listCommands(ctx, requireSession(request), request.body ?? CommandsRequestSchema.parse({})),
      ),
  );

  registerCsvExport(app, "commands", {
    body: CommandsRequestSchema,
    summary: "The domain's commands for the list's filters (status, type; limit and offset ignored)",
    columns: COMMAND_CSV_COLUMNS,
    rows: (session, query) => exportCommandsRows(ctx, session, query),
  });

  app.post(
    "/commands/dry-run",
    {
      schema: {
        tags,
        summary: "What a new command would do: targets, offline now, approvals",
        body: CreateCommandSchema,
        response: { 200: CommandDryRunSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "commands.dryRun" },
    },
    async (request) => dryRunCommand(ctx, requireSession(request), request.body),
  );

  app.post(
    "/command/new",
    {
      schema: {
        tags,
        summary: "A new command to routers by id, tag or all",
        body: CreateCommandSchema,
        response: { 200: CommandSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commands.create" },
    },
    async (request) => createCommand(ctx, requireSession(request), request.body),
  );

  app.post(
    "/command/:command_id",
    {
      schema: {
        tags,
        summary: "One command",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: CommandSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "commands.view" },
    },
    async (request) => getCommand(ctx, requireSession(request), request.params.command_id),
  );

  app.post(
    "/command/:command_id/approve",
    {
      schema: {
        tags,
        summary: "Approve a waiting command (four eyes)",
        params: IdParams,
        body: CommandDecisionSchema.nullish(),
        response: { 200: CommandSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commands.approve" },
    },
    async (request) =>
      approveCommand(ctx, requireSession(request), request.params.command_id, request.body ?? {}),
  );

  app.post(
    "/command/:command_id/decline",
    {
      schema: {
        tags,
        summary: "Decline a waiting command with a reason",
        params: IdParams,
        body: CommandDecisionSchema.nullish(),
        response: { 200: CommandSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commands.approve" },
    },
    async (request) =>
      declineCommand(ctx, requireSession(request), request.params.command_id, request.body ?? {}),
  );

  app.post(
    "/commands/waiting",
    {
      schema: {
        tags,
        summary: "Commands waiting for a decision the caller may make (never their own)",
        body: TokenOnlyBodySchema.nullish(),
        response: { 200: WaitingApprovalsSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "commands.view" },
    },
    async (request) => listWaitingApprovals(ctx, requireSession(request)),
  );

  app.post(
    "/command/:command_id/cancel",
    {
      schema: {
        tags,
        summary: "Cancel what has not reached a router",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: CommandSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commands.cancel" },
    },
    async (request) => cancelCommand(ctx, requireSession(request), request.params.command_id),
  );

  app.post(
    "/command/:command_id/retry-failed",
    {
      schema: {
        tags,
        summary: "A new command for the routers whose executions failed",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: CommandSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commands.create" },
    },
    async (request) => {
      const session = requireSession(request);
      const retry = await failedRetryInput(ctx, session, request.params.command_id);
      return createCommand(ctx, session, CreateCommandSchema.parse(retry.input), {
        scriptVersion: retry.scriptVersion,
      });
    },
  );

  app.post(
    "/reports",
    {
      schema: {
        tags,
        summary: "Executions (reports) as NDJSON: of a command, of a router",
        body: ReportsRequestSchema.nullish(),
        response: { 200: NDJSON, ...ERROR_RESPONSES },
      },
      config: { permission: "reports.view" },
    },
    async (request, reply) =>
      sendNdjson(
        request,
        reply,
        listReports(ctx, requireSession(request), request.body ?? ReportsRequestSchema.parse({})),
      ),
  );

  app.post(
    "/report/:device_id/:report_id",
    {
      schema: {
        tags,
        summary: "One router's execution of a command",
        params: z.object({ device_id: z.string().min(1).max(64), report_id: z.string().min(1).max(64) }),
        body: TokenOnlyBodySchema,
        response: { 200: ExecutionSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "reports.view" },
    },
    async (request) =>
      getReport(ctx, requireSession(request), request.params.device_id, request.params.report_id),
  );

  app.post(
    "/command_types",
    {
      schema: {
        tags,
        summary: "Built-in and custom command types, and the quick list",
        body: TokenOnlyBodySchema,
        response: { 200: CommandTypesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "commandTypes.view" },
    },
    async (request) => listCommandTypes(ctx, requireSession(request)),
  );

  app.post(
    "/command_type",
    {
      schema: {
        tags,
        summary: "A new custom command type (a named shell command)",
        body: CreateCommandTypeSchema,
        response: { 200: CommandTypeSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commandTypes.manage" },
    },
    async (request) => createCommandType(ctx, requireSession(request), request.body),
  );

  app.delete(
    "/command_type/:id",
    {
      schema: {
        tags,
        summary: "Delete a custom command type",
        params: z.object({ id: z.string().min(1).max(64) }),
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "commandTypes.manage" },
    },
    async (request) => {
      await deleteCommandType(ctx, requireSession(request), request.params.id);
      return { ok: true as const };
    },
  );
};
