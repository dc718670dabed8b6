import { HealthSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES } from "../../platform/http/schemas";
import { readHealth } from "./health.service";

/** GET /api/health. */
export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    "/health",
    {
      schema: {
        tags: ["health"],
        summary: "Liveness and versions",
        response: { 200: HealthSchema, ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async () => readHealth(ctx),
  );
};
