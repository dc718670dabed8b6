import {
  DeliveryListAnswerSchema,
  DeliveryListRequestSchema,
  DeliveryResendAnswerSchema,
  NewsAnswerSchema,
  NewsSeenSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { listDeliveries, listNews, markNewsSeen, resendDelivery } from "./deliveries.service";
import { rulesRoutes } from "./rules.routes";
import { transportsRoutes } from "./transports.routes";

const DeliveryIdParamsSchema = z.object({ id: z.string().min(1).max(64) });
const TAGS = ["notifications"];

/** Everything under /api/notifications: rules, providers, the delivery log and the in-app items. */
export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  await app.register(rulesRoutes, { ctx });
  await app.register(transportsRoutes, { ctx });

  app.post(
    "/notifications/deliveries",
    {
      schema: {
        tags: TAGS,
        summary: "The delivery log, newest first (empty without the notification plugin)",
        body: DeliveryListRequestSchema.nullish(),
        response: { 200: DeliveryListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.list" },
    },
    async (request) => ({
      items: await listDeliveries(
        ctx,
        requireSession(request),
        DeliveryListRequestSchema.parse(request.body ?? {}),
      ),
    }),
  );

  app.post(
    "/notifications/delivery/:id/resend",
    {
      schema: {
        tags: TAGS,
        summary: "Send a failed (or sent) message again",
        params: DeliveryIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: DeliveryResendAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "notifications.edit" },
    },
    async (request) => ({ delivery: await resendDelivery(ctx, requireSession(request), request.params.id) }),
  );

  app.post(
    "/notifications/news",
    {
      schema: {
        tags: TAGS,
        summary: "In-app notifications of the signed-in person (spec section 7)",
        body: TokenOnlyBodySchema,
        response: { 200: NewsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.list" },
    },
    async (request) => listNews(ctx, requireSession(request)),
  );

  app.post(
    "/notifications/news/seen",
    {
      schema: {
        tags: TAGS,
        summary: "Mark the in-app notifications seen up to a time",
        body: NewsSeenSchema.nullish(),
        response: { 200: NewsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "notifications.view" },
    },
    async (request) => markNewsSeen(ctx, requireSession(request), request.body?.until),
  );
};
