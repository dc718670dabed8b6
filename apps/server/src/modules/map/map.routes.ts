import { MapClustersRequestSchema, MapClustersSchema, MapStyleSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { readMapClusters } from "./map.service";

/** The fleet map: clusters of positioned routers for a viewport (ADR 045). */
export const mapRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/map/clusters",
    {
      schema: {
        tags: ["devices"],
        summary:
          "Clusters and lone routers of the viewport, filtered like the device list, counted by status",
        body: MapClustersRequestSchema,
        response: { 200: MapClustersSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => readMapClusters(ctx, requireSession(request), request.body),
  );

  app.post(
    "/map/style",
    {
      schema: {
        tags: ["devices"],
        summary: "The tiles' style JSON URL (MAP_STYLE_URL); null: the map draws a plain background",
        body: TokenOnlyBodySchema,
        response: { 200: MapStyleSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async () => ({ style_url: ctx.config.mapStyleUrl }),
  );
};
