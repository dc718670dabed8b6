import {
  ApiTokenListSchema,
  ApiTokenOptionsSchema,
  CreateApiTokenSchema,
  CreatedApiTokenSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import {
  ERROR_RESPONSES,
  OkSchema,
  TokenFieldSchema,
  TokenOnlyBodySchema,
} from "../../platform/http/schemas";
import {
  apiTokenOptions,
  createToken,
  listDomainTokens,
  listOwnTokens,
  revokeDomainToken,
  revokeOwnToken,
} from "./api-tokens.service";

const TAGS = ["api-tokens"];
const TokenIdParamsSchema = z.object({ tokenId: z.string().min(1).max(64) });

/**
 * Personal API tokens (ADR 040): the profile page's list, options, creation and revocation, and an
 * admin's view of the domain's tokens. No call here is ever made with a token (the table's
 * `byToken: false`): tokens never manage tokens.
 */
export const apiTokensRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/tokens",
    {
      schema: {
        tags: TAGS,
        summary: "The caller's own API tokens, newest first (never their secrets)",
        body: TokenOnlyBodySchema,
        response: { 200: ApiTokenListSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "apiTokens.view" },
    },
    async (request) => ({ items: await listOwnTokens(ctx, requireSession(request)) }),
  );

  app.post(
    "/tokens/options",
    {
      schema: {
        tags: TAGS,
        summary: "The actions the caller may put on a token, and the longest life a token may have",
        body: TokenOnlyBodySchema,
        response: { 200: ApiTokenOptionsSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "apiTokens.view" },
    },
    async (request) => apiTokenOptions(requireSession(request)),
  );

  app.post(
    "/tokens/new",
    {
      schema: {
        tags: TAGS,
        summary: "Make an API token: a name, an expiry, a subset of the caller's actions, allowed networks",
        description: "The answer holds the secret this once; send it as `Authorization: Bearer <token>`.",
        body: CreateApiTokenSchema.extend({ token: TokenFieldSchema }),
        response: { 200: CreatedApiTokenSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "apiTokens.manage" },
    },
    async (request) => {
      const { token: _token, ...body } = request.body;
      return createToken(ctx, requireSession(request), body);
    },
  );

  app.delete(
    "/tokens/:tokenId",
    {
      schema: {
        tags: TAGS,
        summary: "Revoke one of the caller's API tokens",
        params: TokenIdParamsSchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "apiTokens.manage" },
    },
    async (request) => {
      await revokeOwnToken(ctx, requireSession(request), request.params.tokenId);
      return { ok: true as const };
    },
  );

  app.post(
    "/tokens/domain",
    {
      schema: {
        tags: TAGS,
        summary: "Every API token of the domain's people (admins)",
        body: TokenOnlyBodySchema,
        response: { 200: ApiTokenListSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "apiTokens.viewDomain" },
    },
    async (request) => ({ items: await listDomainTokens(ctx, requireSession(request)) }),
  );

  app.delete(
    "/tokens/domain/:tokenId",
    {
      schema: {
        tags: TAGS,
        summary: "Revoke any API token of the domain's people (admins)",
        params: TokenIdParamsSchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "apiTokens.revokeDomain" },
    },
    async (request) => {
      await revokeDomainToken(ctx, requireSession(request), request.params.tokenId);
      return { ok: true as const };
    },
  );
};
