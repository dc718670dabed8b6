import type { Job, JobsRequest } from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import type { JobRow } from "../../platform/db/schema";
import { isUniqueViolation } from "../../platform/db/unique-violation";
import { AppError } from "../../platform/errors";
import { jobsRepo } from "../../platform/jobs/jobs.repo";

/** The one mapper of a job row to the API's job; the payload stays inside. */
export function toJob(row: JobRow): Job {
  return {
    _id: row.id,
    kind: row.kind,
    domain_id: row.domain_id,
    state: row.state,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    last_error: row.last_error,
    dedupe_key: row.dedupe_key,
    locked_by: row.locked_by,
    run_at: row.run_at.getTime(),
    create_time: row.create_time.getTime(),
    finish_time: row.finish_time?.getTime() ?? null,
  };
}

/** Superusers (who belong to no domain) see every domain's jobs and the platform's; an admin its own domain's. */
function seesAllDomains(session: SessionContext): boolean {
  return session.domainId === null;
}

/** POST /api/jobs/. */
export async function listJobs(
  ctx: AppContext,
  session: SessionContext,
  request: JobsRequest,
): Promise<Job[]> {
  const repo = jobsRepo(ctx.db);
  const filter = { states: request.state, kinds: request.kind, limit: request.limit, offset: request.offset };
  const rows =
    session.domainId === null
      ? await repo.findJobsAcrossDomains(filter)
      : await repo.findJobs(session.domainId, filter);
  return rows.map(toJob);
}

/**
 * POST /api/job/{id}/retry: a person gives a failed or dead job another full set of attempts.
 * TASK_NOT_FOUND when the job is not the caller's to see; BAD_REQUEST when it is not failed or dead.
 */
export async function retryJob(ctx: AppContext, session: SessionContext, id: string): Promise<Job> {
  const repo = jobsRepo(ctx.db);
  const domainId = seesAllDomains(session) ? null : session.domainId;
  const existing = domainId === null ? await repo.findJobAcrossDomains(id) : await repo.findJob(domainId, id);
  if (!existing) throw new AppError("TASK_NOT_FOUND", "No such job");
  if (existing.state !== "failed" && existing.state !== "dead") {
    throw new AppError(
      "BAD_REQUEST",
      `Only a failed or dead job can be retried; this one is ${existing.state}`,
    );
  }
  const now = ctx.now();
  let row: JobRow | undefined;
  try {
    row = await ctx.jobs.transaction((trx) =>
      domainId === null
        ? jobsRepo(trx).requeueJobAcrossDomains(id, now)
        : jobsRepo(trx).requeueJob(domainId, id, now),
    );
  } catch (error) {
    // The partial unique index: a live job already holds this job's dedupe key, so it would run twice.
    if (isUniqueViolation(error)) {
      throw new AppError("KEY_ALREADY_EXISTS", "A live job with the same dedupe key is already queued");
    }
    throw error;
  }
  // Its state changed between the read and the update (a dispatcher or another person got there first).
  if (!row) throw new AppError("BAD_REQUEST", "The job is no longer failed or dead");
  return toJob(row);
}
