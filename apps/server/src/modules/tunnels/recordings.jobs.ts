import type { AppContext } from "../../platform/context";
import type { NoPayload } from "../../platform/jobs/jobs";
import { tunnelsRepo } from "./tunnels.repo";
import { recordingKey } from "./tunnels.service";

/** The durable job that removes recordings past their domain's retention (ADR 038). */
export const RECORDINGS_RETENTION_JOB = "tunnels.recordings-retention";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "tunnels.recordings-retention": NoPayload;
  }
}
/** It runs hourly; each run removes what is due, in rounds. */
export const RECORDINGS_RETENTION_INTERVAL_MS = 60 * 60_000;
const ROUND = 200;

/**
 * Removes from file storage the recordings older than their domain's `remote_access.recording_days`,
 * then marks each session as having none. Idempotent: a run cut short leaves the rest for the next,
 * and a file already gone is not an error. Answers how many it removed.
 */
export async function trimRecordings(ctx: Pick<AppContext, "db" | "storage" | "now">): Promise<number> {
  const repo = tunnelsRepo(ctx.db);
  let removed = 0;
  for (;;) {
    const due = await repo.listExpiredRecordingsAcrossDomains(ctx.now(), ROUND);
    for (const session of due) {
      await ctx.storage.delete(recordingKey(session.id));
      await repo.clearRecording(session.domain_id, session.id);
      removed++;
    }
    if (due.length < ROUND) return removed;
  }
}

/** Registers the hourly retention run on the platform's jobs (once across nodes). */
export function registerRecordingsJobs(
  ctx: Pick<AppContext, "jobs" | "db" | "storage" | "now" | "log">,
): void {
  ctx.jobs.register(RECORDINGS_RETENTION_JOB, {
    maxAttempts: 3,
    timeoutMs: 10 * 60_000,
    async handle() {
      const removed = await trimRecordings(ctx);
      if (removed > 0) ctx.log.info({ removed }, "remote access: recordings past their retention removed");
    },
  });
  ctx.jobs.every(RECORDINGS_RETENTION_JOB, RECORDINGS_RETENTION_INTERVAL_MS);
}
