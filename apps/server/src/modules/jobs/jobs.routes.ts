import { JobRetryAnswerSchema, JobsAnswerSchema, JobsRequestSchema } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { listJobs, retryJob } from "./jobs.service";

const JobIdParamsSchema = z.object({ jobId: z.string().min(1).max(64) });

/** Durable jobs for people: the list (superusers: all; admins: their domain's) and a retry of a dead one. */
export const jobsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/jobs/",
    {
      schema: {
        tags: ["jobs"],
        summary: "Jobs, newest first, filtered by state and kind",
        body: JobsRequestSchema.nullish(),
        response: { 200: JobsAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "jobs.view" },
    },
    async (request) => ({
      items: await listJobs(ctx, requireSession(request), request.body ?? JobsRequestSchema.parse({})),
    }),
  );

  app.post(
    "/job/:jobId/retry",
    {
      schema: {
        tags: ["jobs"],
        summary: "Queue a failed or dead job again with its attempts reset",
        params: JobIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: JobRetryAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "jobs.retry" },
    },
    async (request) => ({ job: await retryJob(ctx, requireSession(request), request.params.jobId) }),
  );
};
