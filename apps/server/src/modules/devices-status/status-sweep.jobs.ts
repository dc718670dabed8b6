import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { runStatusSweep } from "./status-sweep.service";

/** A sweep asked for now (the periodic one runs every 20 s under its lease). */
export const STATUS_SWEEP_NOW_JOB = "devices.statusSweep";

/** Registers the on-demand sweep: a domain's thresholds changed, so statuses move at once. */
export function registerStatusSweepJob(ctx: AppContext): void {
  ctx.jobs.register(STATUS_SWEEP_NOW_JOB, {
    handle: async () => {
      await runStatusSweep({ db: ctx.db, bus: ctx.bus, now: ctx.now, jobs: ctx.jobs });
    },
  });
}

/**
 * Queues a sweep in the transaction that changed a domain's thresholds, so the stored statuses,
 * their socket pushes and their `device.status_changed` events follow within a second of the commit.
 * One queued sweep serves every change made before it runs.
 */
export async function enqueueStatusSweep(ctx: AppContext, trx: Kysely<DB>, domainId: string): Promise<void> {
  await ctx.jobs.enqueue(trx, { kind: STATUS_SWEEP_NOW_JOB, domainId, dedupeKey: STATUS_SWEEP_NOW_JOB });
}
