import {
  type PermissionAction,
  SavedScriptSchema,
  SaveScriptSchema,
  type ScriptKind,
  ScriptsAnswerSchema,
  ScriptsRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { createScript, deleteScript, getScript, listScripts, saveScript } from "./scripts.service";

const IdParams = z.object({ id: z.string().min(1).max(64) });

/** The paths and permissions of one kind: saved scripts (/api/scripts/, /api/script/…) or templates. */
const KINDS: ReadonlyArray<{
  kind: ScriptKind;
  list: string;
  one: string;
  view: PermissionAction;
  edit: PermissionAction;
}> = [
  { kind: "script", list: "/scripts", one: "/script", view: "scripts.view", edit: "scripts.edit" },
  { kind: "template", list: "/templates", one: "/template", view: "templates.view", edit: "templates.edit" },
];

/** Saved scripts and settings templates (spec sections 2, 3, 7): list, one, new, new version, delete. */
export const scriptsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  for (const { kind, list, one, view, edit } of KINDS) {
    const tags = [kind === "script" ? "scripts" : "templates"];
    app.post(
      list,
      {
        schema: {
          tags,
          summary: `The domain's saved ${kind}s`,
          body: ScriptsRequestSchema.nullish(),
          response: { 200: ScriptsAnswerSchema, ...ERROR_RESPONSES },
        },
        config: { permission: view },
      },
      async (request) => listScripts(ctx, requireSession(request), kind, request.body?.search ?? ""),
    );

    app.post(
      `${one}/new`,
      {
        schema: {
          tags,
          summary: `A new ${kind} (version 1)`,
          body: SaveScriptSchema,
          response: { 200: SavedScriptSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: edit },
      },
      async (request) => createScript(ctx, requireSession(request), kind, request.body),
    );

    app.post(
      `${one}/:id`,
      {
        schema: {
          tags,
          summary: `One ${kind} at its latest version, with its versions`,
          params: IdParams,
          body: TokenOnlyBodySchema,
          response: { 200: SavedScriptSchema, ...ERROR_RESPONSES },
        },
        config: { permission: view },
      },
      async (request) => getScript(ctx, requireSession(request), kind, request.params.id),
    );

    app.post(
      `${one}/:id/save`,
      {
        schema: {
          tags,
          summary: `Save a new version of a ${kind}`,
          params: IdParams,
          body: SaveScriptSchema,
          response: { 200: SavedScriptSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: edit },
      },
      async (request) => saveScript(ctx, requireSession(request), kind, request.params.id, request.body),
    );

    app.delete(
      `${one}/:id`,
      {
        schema: {
          tags,
          summary: `Delete a ${kind} (commands keep the version they used)`,
          params: IdParams,
          response: { 200: OkSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: edit },
      },
      async (request) => {
        await deleteScript(ctx, requireSession(request), kind, request.params.id);
        return { ok: true as const };
      },
    );
  }
};
