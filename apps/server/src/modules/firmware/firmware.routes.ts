import {
  RolloutDryRunRequestSchema,
  RolloutDryRunSchema,
  SaveSoftwareRuleSchema,
  SoftwareRuleIdSchema,
  SoftwareRuleSchema,
  SoftwareRulesAnswerSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { contentDisposition } from "../files/files.routes";
import { exportSoftwareRows, SOFTWARE_CSV_COLUMNS } from "./firmware.export";
import {
  createSoftwareRule,
  deleteSoftwareRule,
  getSoftwareRule,
  listSoftwareRules,
  openSoftwareFile,
  saveSoftwareRule,
  syncSoftwareRule,
} from "./firmware.service";
import { dryRunRollout } from "./rollout.service";

const IdParams = z.object({ id: SoftwareRuleIdSchema });
const tags = ["software"];

/** Software (firmware) rules, root's (spec sections 2 and 7): list, one, new, save, sync, delete, file. */
export const firmwareRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/firmwares",
    {
      schema: {
        tags,
        summary: "Every software rule: url, status, models, file, sync_time, name",
        body: TokenOnlyBodySchema,
        response: { 200: SoftwareRulesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "software.view" },
    },
    async () => listSoftwareRules(ctx),
  );

  registerCsvExport(app, "firmwares", {
    body: TokenOnlyBodySchema,
    summary: "Every software rule with its status, series, models and file, oldest first",
    columns: SOFTWARE_CSV_COLUMNS,
    rows: () => exportSoftwareRows(ctx),
  });

  app.post(
    "/software/new",
    {
      schema: {
        tags,
        summary: "A new software rule; the server fetches its file (status Pending until then)",
        body: SaveSoftwareRuleSchema,
        response: { 200: SoftwareRuleSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "software.manage" },
    },
    async (request) => createSoftwareRule(ctx, request.body),
  );

  app.post(
    "/software/:id",
    {
      schema: {
        tags,
        summary: "One software rule",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: SoftwareRuleSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "software.view" },
    },
    async (request) => getSoftwareRule(ctx, request.params.id),
  );

  app.post(
    "/software/:id/save",
    {
      schema: {
        tags,
        summary: "Save a software rule; a new URL is fetched again",
        params: IdParams,
        body: SaveSoftwareRuleSchema,
        response: { 200: SoftwareRuleSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "software.manage" },
    },
    async (request) => saveSoftwareRule(ctx, request.params.id, request.body),
  );

  app.post(
    "/software/:id/sync",
    {
      schema: {
        tags,
        summary: "Fetch the rule's file again",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: SoftwareRuleSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "software.manage" },
    },
    async (request) => syncSoftwareRule(ctx, request.params.id),
  );

  app.delete(
    "/software/:id",
    {
      schema: {
        tags,
        summary: "Delete a software rule and its file",
        params: IdParams,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "software.manage" },
    },
    async (request) => {
      await deleteSoftwareRule(ctx, request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/software/:id/rollout/dry-run",
    {
      schema: {
        tags,
        summary: "The routers each stage of a rollout would take now, and those skipped with reasons",
        params: IdParams,
        body: RolloutDryRunRequestSchema,
        response: { 200: RolloutDryRunSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "software.view" },
    },
    async (request) => dryRunRollout(ctx, request.params.id, request.body),
  );

  app.get(
    "/software/:id/file",
    {
      schema: {
        tags,
        summary: "Download the rule's fetched firmware",
        params: IdParams,
        response: { 200: z.unknown().describe("the file (application/octet-stream)"), ...ERROR_RESPONSES },
      },
      config: { permission: "software.view" },
    },
    async (request, reply) => {
      const { filename, read } = await openSoftwareFile(ctx, request.params.id);
      return reply
        .type("application/octet-stream")
        .header("cache-control", "private, no-store")
        .header("content-disposition", contentDisposition(filename))
        .header("content-length", read.size)
        .send(read.stream);
    },
  );
};
