import { z } from "zod";

// Durable jobs as people see them: the list of work after a commit, and a retry of what died.

/** The states of a job: waiting, running, finished, failed and waiting for its retry, out of attempts. */
export const JOB_STATES = ["queued", "running", "done", "failed", "dead"] as const;
/** A job's state. */
export type JobState = (typeof JOB_STATES)[number];

/** A job as the API shows it; its payload is not shown (it may name people and addresses). */
export const JobSchema = z.object({
  _id: z.string(),
  kind: z.string(),
  domain_id: z.string().nullable(),
  state: z.enum(JOB_STATES),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  last_error: z.string().nullable(),
  dedupe_key: z.string().nullable(),
  locked_by: z.string().nullable(),
  /** ms since the epoch, like every time in the API. */
  run_at: z.number(),
  create_time: z.number(),
  finish_time: z.number().nullable(),
});
/** A job. */
export type Job = z.infer<typeof JobSchema>;

/**
 * POST /api/jobs/ (superusers: every domain; admins: their own domain's). Newest first, `limit`
 * (default 100) from `offset`; `state` and `kind` filter when given.
 */
export const JobsRequestSchema = z.object({
  state: z.array(z.enum(JOB_STATES)).optional(),
  kind: z.array(z.string().max(255)).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
  offset: z.number().int().min(0).default(0),
});
/** Body of POST /api/jobs/. */
export type JobsRequest = z.infer<typeof JobsRequestSchema>;

/** Answer of POST /api/jobs/. */
export const JobsAnswerSchema = z.object({ items: z.array(JobSchema) });
/** Answer of POST /api/jobs/. */
export type JobsAnswer = z.infer<typeof JobsAnswerSchema>;

/** Answer of POST /api/job/{id}/retry: the job, queued again with its attempts reset. */
export const JobRetryAnswerSchema = z.object({ job: JobSchema });
/** Answer of POST /api/job/{id}/retry. */
export type JobRetryAnswer = z.infer<typeof JobRetryAnswerSchema>;
