import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import type { NoPayload } from "../../platform/jobs/jobs";
import { runStatusSweep, STATUS_SWEEP_INTERVAL_MS } from "./status-sweep.service";

/** The status sweep: periodic (`jobs.every`), and queued at once when a domain's thresholds change. */
export const STATUS_SWEEP_JOB = "devices.statusSweep";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "devices.statusSweep": NoPayload;
  }
}

/** Registers the sweep and runs it every STATUS_SWEEP_INTERVAL_MS, once across worker nodes. */
export function registerStatusSweepJob(ctx: AppContext): void {
  ctx.jobs.register(STATUS_SWEEP_JOB, {
    handle: async () => {
      const changed = await runStatusSweep({ db: ctx.db, bus: ctx.bus, now: ctx.now, jobs: ctx.jobs });
      if (changed > 0) ctx.log.info({ changed }, "device statuses changed");
    },
  });
  ctx.jobs.every(STATUS_SWEEP_JOB, STATUS_SWEEP_INTERVAL_MS);
}

/**
 * Queues a sweep in the transaction that changed a domain's thresholds, so the stored statuses,
 * their socket pushes and their `device.status_changed` events follow within a second of the commit.
 * One queued sweep serves every change made before it runs.
 */
export async function enqueueStatusSweep(ctx: AppContext, trx: Kysely<DB>, domainId: string): Promise<void> {
  await ctx.jobs.enqueue(trx, { kind: STATUS_SWEEP_JOB, domainId, dedupeKey: STATUS_SWEEP_JOB });
}
