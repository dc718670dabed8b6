import {
  LatestRolloutSchema,
  RolloutProgressSchema,
  RolloutStartRequestSchema,
  SoftwareRuleIdSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { controlRollout, startRollout } from "./rollout-driver";
import { getLatestRollout, getRollout } from "./rollout-progress";

const RuleParams = z.object({ id: SoftwareRuleIdSchema });
const RolloutParams = z.object({ rollout_id: z.uuid() });
const tags = ["software"];
const ACTIONS = ["pause", "resume", "cancel", "retry"] as const;

/** Staged rollouts of a ready rule (issue 16, ADR 021): start, progress, pause, resume, cancel, retry failed. */
export const rolloutRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/software/:id/rollout",
    {
      schema: {
        tags,
        summary: "Start a staged rollout of a ready rule with the dry run's options",
        params: RuleParams,
        body: RolloutStartRequestSchema,
        response: { 200: RolloutProgressSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "software.manage" },
    },
    async (request) => startRollout(ctx, request.params.id, request.body, requireSession(request).user.id),
  );

  app.post(
    "/software/:id/rollouts",
    {
      schema: {
        tags,
        summary: "The rule's newest rollout with its progress, or null",
        params: RuleParams,
        body: TokenOnlyBodySchema,
        response: { 200: LatestRolloutSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "software.view" },
    },
    async (request) => ({ rollout: await getLatestRollout(ctx, request.params.id) }),
  );

  app.post(
    "/rollout/:rollout_id",
    {
      schema: {
        tags,
        summary: "A rollout's progress: counts per stage, failures with reasons",
        params: RolloutParams,
        body: TokenOnlyBodySchema,
        response: { 200: RolloutProgressSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "software.view" },
    },
    async (request) => getRollout(ctx, request.params.rollout_id),
  );

  for (const action of ACTIONS) {
    app.post(
      `/rollout/:rollout_id/${action}`,
      {
        schema: {
          tags,
          summary: `${action[0]?.toUpperCase()}${action.slice(1)} a rollout`,
          params: RolloutParams,
          body: TokenOnlyBodySchema,
          response: { 200: RolloutProgressSchema, ...ERROR_RESPONSES },
        },
        config: { saves: true, permission: "software.manage" },
      },
      async (request) => controlRollout(ctx, request.params.rollout_id, action),
    );
  }
};
