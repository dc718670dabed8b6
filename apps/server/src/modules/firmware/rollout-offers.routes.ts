import { RolloutAcceptRequestSchema, RolloutOffersAnswerSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { decideRolloutOffer, listRolloutOffers } from "./rollout-offers.service";

const RolloutParams = z.object({ rollout_id: z.uuid() });
const tags = ["software"];

/** Root's rollouts offered to a domain, and its admin's answer (ADR 031). */
export const rolloutOfferRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/rollout-offers",
    {
      schema: {
        tags,
        summary: "Firmware rollouts offered to the domain, newest first, with its answers",
        body: TokenOnlyBodySchema,
        response: { 200: RolloutOffersAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "rolloutOffers.view" },
    },
    async (request) => ({ items: await listRolloutOffers(ctx, requireSession(request)) }),
  );

  app.post(
    "/rollout/:rollout_id/accept",
    {
      schema: {
        tags,
        summary: "Accept a rollout for the domain: now, or only inside the domain's window",
        params: RolloutParams,
        body: RolloutAcceptRequestSchema,
        response: { 200: RolloutOffersAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "rolloutOffers.decide" },
    },
    async (request) => ({
      items: await decideRolloutOffer(ctx, requireSession(request), request.params.rollout_id, {
        accept: true,
        request: request.body,
      }),
    }),
  );

  app.post(
    "/rollout/:rollout_id/decline",
    {
      schema: {
        tags,
        summary: "Decline a rollout for the domain: none of its routers is sent",
        params: RolloutParams,
        body: TokenOnlyBodySchema,
        response: { 200: RolloutOffersAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "rolloutOffers.decide" },
    },
    async (request) => ({
      items: await decideRolloutOffer(ctx, requireSession(request), request.params.rollout_id, {
        accept: false,
      }),
    }),
  );
};
