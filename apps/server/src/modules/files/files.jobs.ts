import type { AppContext } from "../../platform/context";
import type { NoPayload } from "../../platform/jobs/jobs";
import { fileTransfersRepo } from "./file-transfers.repo";
import { filesRepo } from "./files.repo";
import {
  DEVICE_DELETED_EVENT,
  enqueueBlobDeletes,
  enqueueRetention,
  FILE_BLOB_DELETE_JOB,
  FILE_DOMAIN_RETENTION_JOB,
  FILE_RETENTION_JOB,
} from "./files-queue";
import { applyRetention } from "./files-retention";

// Work after a commit of the files feature, as durable jobs (ADR 007): removing blobs, keeping
// the copies a domain asks for, forgetting a deleted router's files, and sweeping lapsed uploads.

/** The periodic sweep of uploads that never came (`jobs.every`, once across nodes). */
export const FILE_SWEEP_JOB = "files.sweep";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "files.sweep": NoPayload;
  }
}
/** How often lapsed uploads are swept. */
export const FILE_SWEEP_INTERVAL_MS = 10 * 60_000;
/** An upload still running past its URL's expiry is left alone this long before it counts as lapsed. */
export const LAPSED_TRANSFER_GRACE_MS = 60 * 60_000;
/** Finished transfer records are kept this long (they explain recent uploads), then removed. */
export const TRANSFER_RECORD_KEEP_MS = 30 * 24 * 3600_000;

/** Registers the files feature's job handlers, its periodic sweep and its subscription to deleted routers. */
export function registerFileJobs(ctx: AppContext): void {
  ctx.jobs.register(FILE_SWEEP_JOB, {
    maxAttempts: 2,
    timeoutMs: 5 * 60_000,
    handle: async () => {
      const lapsed = await sweepLapsedTransfers(ctx);
      if (lapsed > 0) ctx.log.info({ lapsed }, "device uploads that never came were swept");
    },
  });
  ctx.jobs.every(FILE_SWEEP_JOB, FILE_SWEEP_INTERVAL_MS);

  ctx.jobs.register(FILE_BLOB_DELETE_JOB, {
    maxAttempts: 10,
    backoff: { baseMs: 5000, maxMs: 30 * 60_000 },
    // Deleting a missing blob succeeds, so a repeat after a crash does no harm.
    handle: async ({ payload }) => ctx.storage.delete(payload.key),
  });

  ctx.jobs.register(FILE_RETENTION_JOB, {
    maxAttempts: 8,
    handle: async ({ payload, domainId }) => {
      if (domainId === null) return;
      await applyRetention(ctx, domainId, payload.deviceId, payload.fileType);
    },
  });

  ctx.jobs.register(FILE_DOMAIN_RETENTION_JOB, {
    handle: async ({ payload, domainId }) => {
      if (domainId === null) return;
      await ctx.jobs.transaction(async (trx) => {
        const deviceIds = await filesRepo(trx).findDevicesWithCopies(domainId, payload.fileType);
        for (const deviceId of deviceIds)
          await enqueueRetention(ctx, trx, domainId, deviceId, payload.fileType);
      });
    },
  });

  ctx.jobs.subscribe(DEVICE_DELETED_EVENT, "files", {
    handle: async ({ payload }) => {
      await ctx.jobs.transaction(async (trx) => {
        const repo = filesRepo(trx);
        const ids = await repo.findDeviceFileIds(payload.domainId, payload.deviceIds);
        await repo.deleteFiles(payload.domainId, ids);
        await enqueueBlobDeletes(ctx, trx, payload.domainId, ids);
      });
    },
  });
}

/**
 * Marks uploads whose URL lapsed (an hour's grace for one still streaming) as expired and removes
 * whatever a cut-off upload left under their key; drops transfer records older than 30 days.
 * Answers how many lapsed.
 */
export async function sweepLapsedTransfers(ctx: AppContext): Promise<number> {
  const now = ctx.now();
  const lapsed = await fileTransfersRepo(ctx.db).findLapsedTransfersAcrossDomains(
    new Date(now.getTime() - LAPSED_TRANSFER_GRACE_MS),
    500,
  );
  let count = 0;
  for (const transfer of lapsed) {
    await ctx.jobs.transaction(async (trx) => {
      const repo = fileTransfersRepo(trx);
      const lapse = {
        state: "expired" as const,
        error: "no upload before the URL expired",
        finish_time: now,
      };
      const moved =
        (await repo.moveTransfer(transfer.domain_id, transfer.id, "expected", lapse)) ||
        (await repo.moveTransfer(transfer.domain_id, transfer.id, "receiving", lapse));
      if (!moved) return;
      await enqueueBlobDeletes(ctx, trx, transfer.domain_id, [transfer.id]);
      count += 1;
    });
  }
  await fileTransfersRepo(ctx.db).deleteFinishedTransfersAcrossDomains(
    new Date(now.getTime() - TRANSFER_RECORD_KEEP_MS),
  );
  return count;
}
