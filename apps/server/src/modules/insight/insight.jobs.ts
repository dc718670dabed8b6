import type { AppContext } from "../../platform/context";
import { HISTORY_MAINTENANCE_INTERVAL_MS, HISTORY_MAINTENANCE_JOB, maintainHistory } from "./history.jobs";
import { checkDataPlans, DATA_PLAN_CHECK_INTERVAL_MS, DATA_PLAN_CHECK_JOB } from "./plans.jobs";

/**
 * The insight's periodic work on the platform's durable jobs (ADR 007, ADR 013): the hourly rollup
 * and retention, and the data-plan check every 10 minutes. `jobs.every` has the worker nodes enqueue
 * each when due, once across nodes; a run cut short is retried, and every step is idempotent.
 */
export function registerInsightJobs(
  ctx: Pick<AppContext, "jobs" | "db" | "config" | "now" | "bus" | "log">,
): void {
  ctx.jobs.register(HISTORY_MAINTENANCE_JOB, {
    maxAttempts: 3,
    // A first run over days of samples, or a large fleet, takes minutes; the run resumes where it stopped.
    timeoutMs: 30 * 60_000,
    backoff: { baseMs: 60_000, maxMs: 15 * 60_000 },
    async handle({ signal }) {
      const report = await maintainHistory({ db: ctx.db, config: ctx.config, now: ctx.now, signal });
      if (report.deletedRows > 0 || report.dirtyHours > 0)
        ctx.log.info({ ...report }, "history rolled up and trimmed");
    },
  });
  ctx.jobs.every(HISTORY_MAINTENANCE_JOB, HISTORY_MAINTENANCE_INTERVAL_MS);

  ctx.jobs.register(DATA_PLAN_CHECK_JOB, {
    maxAttempts: 3,
    timeoutMs: 5 * 60_000,
    async handle() {
      await checkDataPlans({ db: ctx.db, bus: ctx.bus, now: ctx.now, log: ctx.log });
    },
  });
  ctx.jobs.every(DATA_PLAN_CHECK_JOB, DATA_PLAN_CHECK_INTERVAL_MS);
}
