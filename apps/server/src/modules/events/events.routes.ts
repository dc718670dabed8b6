import {
  EventsReadResultSchema,
  EventsReadSchema,
  EventsRequestSchema,
  EventsUnreadSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { sendNdjson } from "../../platform/http/ndjson";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  countUnreadEvents,
  EVENT_CSV_COLUMNS,
  exportEventsRows,
  listDeviceEvents,
  listEvents,
  markEventsRead,
} from "./events.service";

const NDJSON_EVENTS = z.unknown().describe("application/x-ndjson: one Event a line, newest first");

/** Events: the domain's list and a device's, marking read, and the unread count (admins, assistants, operators). */
export const eventsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/events/all",
    {
      schema: {
        tags: ["events"],
        summary: "The domain's events as NDJSON, newest first (since, for, unread, limit ≤ 2048, offset)",
        body: EventsRequestSchema.nullish(),
        response: { 200: NDJSON_EVENTS, ...ERROR_RESPONSES },
      },
      config: { permission: "events.view" },
    },
    async (request, reply) => {
      const query = request.body ?? EventsRequestSchema.parse({});
      return sendNdjson(request, reply, listEvents(ctx, requireSession(request), query));
    },
  );

  registerCsvExport(app, "events", {
    body: EventsRequestSchema,
    summary:
      "The domain's events for the list's filters (since, for, unread; limit and offset ignored), newest first",
    columns: EVENT_CSV_COLUMNS,
    rows: (session, query) => exportEventsRows(ctx, session, query),
  });

  app.post(
    "/events/read",
    {
      schema: {
        tags: ["events"],
        summary: "Mark events read: ids, or all: true",
        body: EventsReadSchema,
        response: { 200: EventsReadResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "events.markRead" },
    },
    async (request) => markEventsRead(ctx, requireSession(request), request.body),
  );

  app.post(
    "/events/unread",
    {
      schema: {
        tags: ["events"],
        summary: "How many of the domain's events are unread (the menu's 'new' badge)",
        body: TokenOnlyBodySchema,
        response: { 200: EventsUnreadSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "events.view" },
    },
    async (request) => countUnreadEvents(ctx, requireSession(request)),
  );

  app.post(
    "/events/:dev_id",
    {
      schema: {
        tags: ["events"],
        summary: "One device's events as NDJSON, newest first",
        params: z.object({ dev_id: z.string().min(1).max(64) }),
        body: EventsRequestSchema.nullish(),
        response: { 200: NDJSON_EVENTS, ...ERROR_RESPONSES },
      },
      config: { permission: "events.view" },
    },
    async (request, reply) => {
      const query = request.body ?? EventsRequestSchema.parse({});
      return sendNdjson(
        request,
        reply,
        listDeviceEvents(ctx, requireSession(request), request.params.dev_id, query),
      );
    },
  );
};
