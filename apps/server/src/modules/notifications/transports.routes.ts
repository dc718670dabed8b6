import {
  ChatLookupAnswerSchema,
  ChatLookupSchema,
  CreateTransportSchema,
  TestTransportAnswerSchema,
  TestTransportSchema,
  TransportListAnswerSchema,
  TransportListRequestSchema,
  TransportSchema,
  UpdateTransportSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, OkSchema, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  createTransport,
  deleteTransport,
  getTransport,
  listTransports,
  lookupChats,
  testTransport,
  updateTransport,
} from "./transports.service";

const TransportIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
const TAGS = ["notifications"];

/**
 * Notification providers (spec sections 2 and 3): read by everyone with the plugin, changed and
 * deleted by superusers and admins only (assistants cannot change channels, spec section 6).
 */
export const transportsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/notifications/transports",
    {
      schema: {
        tags: TAGS,
        summary: "Providers (empty without the notification plugin)",
        body: TransportListRequestSchema.nullish(),
        response: { 200: TransportListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.list" },
    },
    async (request) => ({ items: await listTransports(ctx, requireSession(request), request.body ?? {}) }),
  );

  app.post(
    "/notifications/transport/new",
    {
      schema: {
        tags: TAGS,
        summary: "Create a provider; its secret is write-only",
        body: CreateTransportSchema,
        response: { 200: TransportSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "transports.edit" },
    },
    async (request) => createTransport(ctx, requireSession(request), request.body),
  );

  app.post(
    "/notifications/transport/test",
    {
      schema: {
        tags: TAGS,
        summary: "Send a test message through the form's provider",
        body: TestTransportSchema,
        response: { 200: TestTransportAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "transports.edit" },
    },
    async (request) => testTransport(ctx, requireSession(request), request.body),
  );

  app.post(
    "/notifications/transport/chats",
    {
      schema: {
        tags: TAGS,
        summary: "The chats a Telegram bot heard from lately (getUpdates)",
        body: ChatLookupSchema,
        response: { 200: ChatLookupAnswerSchema, ...ERROR_RESPONSES },
      },
      // Not a change, but it uses the provider's credential: recorded, and refused to the demo user.
      config: { saves: true, permission: "transports.edit" },
    },
    async (request) => lookupChats(ctx, requireSession(request), request.body),
  );

  app.post(
    "/notifications/transport/:id",
    {
      schema: {
        tags: TAGS,
        summary: "One provider (without its secret)",
        params: TransportIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: TransportSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.view" },
    },
    async (request) => getTransport(ctx, requireSession(request), request.params.id),
  );

  app.put(
    "/notifications/transport/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Change a provider; a secret left out stays as it is",
        params: TransportIdParamsSchema,
        body: UpdateTransportSchema,
        response: { 200: TransportSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "transports.edit" },
    },
    async (request) => updateTransport(ctx, requireSession(request), request.params.id, request.body),
  );

  app.delete(
    "/notifications/transport/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Delete a provider no rule uses (else TRANSPORT_IS_USED)",
        params: TransportIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: OkSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "transports.delete" },
    },
    async (request) => {
      await deleteTransport(ctx, requireSession(request), request.params.id);
      return { ok: true as const };
    },
  );
};
