import {
  AcceptAdoptionSchema,
  AdoptionSchema,
  AdoptionsAnswerSchema,
  AdoptionsRequestSchema,
  ZeroTouchConfigInputSchema,
  ZeroTouchConfigSchema,
  ZeroTouchConfigsAnswerSchema,
  ZeroTouchSecretAnswerSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { acceptAdoption, listAdoptions, rejectAdoption } from "./adoption.service";
import {
  createConfig,
  deleteConfig,
  getConfig,
  listConfigs,
  renewSecret,
  saveConfig,
} from "./zerotouch.service";

const IdParams = z.object({ id: z.string().min(1).max(64) });
const tags = ["zerotouch"];

/** Zero-touch configurations and the adoption list (spec section 1; ADR 023). Admins of the domain. */
export const zeroTouchRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/zerotouch/configs",
    {
      schema: {
        tags,
        summary: "The domain's zero-touch configurations",
        body: TokenOnlyBodySchema,
        response: { 200: ZeroTouchConfigsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "zeroTouch.view" },
    },
    async (request) => ({ items: await listConfigs(ctx, requireSession(request)) }),
  );

  app.post(
    "/zerotouch/config/new",
    {
      schema: {
        tags,
        summary: "A new configuration; its secret is answered this once",
        body: ZeroTouchConfigInputSchema,
        response: { 200: ZeroTouchSecretAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "zeroTouch.manage" },
    },
    async (request) => createConfig(ctx, requireSession(request), request.body),
  );

  app.post(
    "/zerotouch/config/:id",
    {
      schema: {
        tags,
        summary: "One configuration (never its secret)",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: ZeroTouchConfigSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "zeroTouch.view" },
    },
    async (request) => getConfig(ctx, requireSession(request), request.params.id),
  );

  app.post(
    "/zerotouch/config/:id/save",
    {
      schema: {
        tags,
        summary: "New fields of a configuration; key id and secret stay",
        params: IdParams,
        body: ZeroTouchConfigInputSchema,
        response: { 200: ZeroTouchConfigSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "zeroTouch.manage" },
    },
    async (request) => saveConfig(ctx, requireSession(request), request.params.id, request.body),
  );

  app.post(
    "/zerotouch/config/:id/secret",
    {
      schema: {
        tags,
        summary: "A new secret for a configuration, answered this once",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: ZeroTouchSecretAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "zeroTouch.manage" },
    },
    async (request) => renewSecret(ctx, requireSession(request), request.params.id),
  );

  app.delete(
    "/zerotouch/config/:id",
    {
      schema: {
        tags,
        summary: "Deletes a configuration; routers that joined through it stay",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "zeroTouch.manage" },
    },
    async (request) => {
      await deleteConfig(ctx, requireSession(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    "/zerotouch/adoptions",
    {
      schema: {
        tags,
        summary: "The adoption list: routers a configuration did not match",
        body: AdoptionsRequestSchema.nullish(),
        response: { 200: AdoptionsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "zeroTouch.view" },
    },
    async (request) => ({
      items: await listAdoptions(ctx, requireSession(request), request.body?.status ?? "all"),
    }),
  );

  app.post(
    "/zerotouch/adoption/:id/accept",
    {
      schema: {
        tags,
        summary: "Accepts a waiting or rejected router: it is created with the tags chosen",
        params: IdParams,
        body: AcceptAdoptionSchema,
        response: { 200: AdoptionSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "zeroTouch.manage" },
    },
    async (request) => acceptAdoption(ctx, requireSession(request), request.params.id, request.body),
  );

  app.post(
    "/zerotouch/adoption/:id/reject",
    {
      schema: {
        tags,
        summary: "Rejects a waiting router: refused until accepted",
        params: IdParams,
        body: TokenOnlyBodySchema,
        response: { 200: AdoptionSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "zeroTouch.manage" },
    },
    async (request) => rejectAdoption(ctx, requireSession(request), request.params.id),
  );
};
