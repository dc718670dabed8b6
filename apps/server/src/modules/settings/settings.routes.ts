import {
  DomainSettingsAnswerSchema,
  EventTypeActiveRequestSchema,
  EventTypeAnswerSchema,
  EventTypesAnswerSchema,
  SaveDomainSettingsRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  getDomainSettings,
  listEventTypes,
  saveDomainSettings,
  setEventTypeActive,
} from "./settings.service";

const TAGS = ["settings"];
const EventTypeParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The settings screen's calls (spec section 7): domain settings and event types. */
export const settingsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/settings/all",
    {
      schema: {
        tags: TAGS,
        summary: "The domain's status thresholds and saved copies",
        body: TokenOnlyBodySchema,
        response: { 200: DomainSettingsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "settings.view" },
    },
    async (request) => ({ settings: await getDomainSettings(ctx, requireSession(request)) }),
  );

  app.patch(
    "/settings/domains-all",
    {
      schema: {
        tags: TAGS,
        summary: "Save the domain's status thresholds and saved copies",
        body: SaveDomainSettingsRequestSchema,
        response: { 200: DomainSettingsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "settings.save" },
    },
    async (request) => ({ settings: await saveDomainSettings(ctx, requireSession(request), request.body) }),
  );

  app.post(
    "/event_types",
    {
      schema: {
        tags: TAGS,
        summary: "Every event type with its active switch",
        body: TokenOnlyBodySchema,
        response: { 200: EventTypesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "settings.view" },
    },
    async (request) => ({ items: await listEventTypes(ctx, requireSession(request)) }),
  );

  app.patch(
    "/event_type/:id",
    {
      schema: {
        tags: TAGS,
        summary: "Switch an event type on or off (an inactive type raises no badge and no notification)",
        params: EventTypeParamsSchema,
        body: EventTypeActiveRequestSchema,
        response: { 200: EventTypeAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "settings.save" },
    },
    async (request) => ({
      item: await setEventTypeActive(ctx, requireSession(request), request.params.id, request.body.active),
    }),
  );
};
