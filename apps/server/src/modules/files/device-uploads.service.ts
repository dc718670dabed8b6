import { DEVICE_UPLOAD_MAX_BYTES, type FileStatus } from "@cellfleet/contract";
import type { AppContext } from "../../platform/context";
import type { FileTransferRow } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { FileTooLargeError, type StoredFile } from "../../platform/storage/file-storage";
import type { TransferGrant } from "../../platform/storage/signed-url";
import type { TransferHooks } from "../../platform/storage/transfer.routes";
import { fileTransfersRepo } from "./file-transfers.repo";
import { filesRepo } from "./files.repo";
import {
  enqueueBlobDeletes,
  enqueueRetention,
  FILE_UPLOADED_EVENT,
  type FileUploadedEvent,
} from "./files-queue";

// What the files feature decides about a router's transfer once its signed URL holds (ADR 011's
// hooks): which file a URL may reach, how large an upload may be, and what an upload becomes.

async function authorizeDownload(ctx: AppContext, grant: TransferGrant): Promise<void> {
  const repo = fileTransfersRepo(ctx.db);
  const file = await repo.findFileAcrossDomains(grant.fileId);
  // A ready software rule's firmware is root's, for any known router (a rollout sends it: ADR 021).
  if (!file && (await repo.findSoftwareFile(grant.fileId))) {
    if (!(await repo.findDeviceDomainAcrossDomains(grant.deviceId)))
      throw new AppError("ACCESS_DENIED", "The file is not this device's to download");
    return;
  }
  if (file?.status !== "completed") throw new AppError("FILE_NOT_FOUND", "No such file");
  // A router reaches its own domain's files only (a backup of another router of it may be restored).
  if ((await repo.findDeviceDomainAcrossDomains(grant.deviceId)) !== file.domain_id) {
    throw new AppError("ACCESS_DENIED", "The file is not this device's to download");
  }
}

/** The transfer a PUT URL names, if it is the named router's. */
async function requireOwnTransfer(ctx: AppContext, grant: TransferGrant): Promise<FileTransferRow> {
  const repo = fileTransfersRepo(ctx.db);
  const transfer = await repo.findTransferAcrossDomains(grant.fileId);
  if (!transfer) {
    // A stored file is never written over through a URL: uploads go to fresh keys only.
    if (await repo.findFileAcrossDomains(grant.fileId))
      throw new AppError("ACCESS_DENIED", "This file takes no upload");
    throw new AppError("FILE_NOT_FOUND", "No upload is expected here");
  }
  if (transfer.device_id !== grant.deviceId) {
    throw new AppError("ACCESS_DENIED", "The upload is not this device's");
  }
  return transfer;
}

/** Takes the upload slot, so one body at a time is received for it. */
async function claimUpload(ctx: AppContext, grant: TransferGrant): Promise<void> {
  const transfer = await requireOwnTransfer(ctx, grant);
  const repo = fileTransfersRepo(ctx.db);
  if (await repo.moveTransfer(transfer.domain_id, transfer.id, "expected", { state: "receiving" })) return;
  const now = (await repo.findTransferAcrossDomains(transfer.id))?.state ?? transfer.state;
  if (now === "completed") throw new AppError("FILE_EXISTS", "This upload was received already");
  if (now === "receiving") throw new AppError("FILE_EXISTS", "An upload to this URL is under way");
  throw new AppError("ACCESS_DENIED", "This upload was refused or has lapsed; the command needs a new URL");
}

/**
 * Records an upload that arrived whole, in one transaction: the file row (status failed for an
 * empty backup or journal), or, for a backup identical to the router's newest good one, a note on
 * that one and the new blob's removal; then the transfer's completion, the dashboard flags, the
 * retention job and the `file.uploaded` event.
 */
async function recordUpload(ctx: AppContext, grant: TransferGrant, stored: StoredFile): Promise<void> {
  const found = await fileTransfersRepo(ctx.db).findTransferAcrossDomains(grant.fileId);
  if (!found) throw new AppError("FILE_NOT_FOUND", "No upload is expected here");
  const domainId = found.domain_id;
  await ctx.jobs.transaction(async (trx) => {
    const transfers = fileTransfersRepo(trx);
    const transfer = await transfers.lockTransfer(domainId, grant.fileId);
    if (transfer?.state !== "receiving")
      throw new AppError("FILE_EXISTS", "This upload was received already");
    const files = filesRepo(trx);
    if (!(await files.findDevice(domainId, transfer.device_id))) throw new AppError("DEVICE_NOT_FOUND");
    const now = ctx.now();
    const isRetained = transfer.file_type === "backup" || transfer.file_type === "journal";
    const status: FileStatus = isRetained && stored.size === 0 ? "failed" : "completed";
    let fileId = transfer.id;
    let isRepeat = false;
    if (transfer.file_type === "backup" && status === "completed") {
      const newest = await files.findNewestGoodCopy(domainId, transfer.device_id, "backup");
      if (newest && newest.sha256 === stored.sha256) {
        isRepeat = true;
        fileId = newest.id;
        await files.noteRepeat(domainId, newest.id, now);
        await enqueueBlobDeletes(ctx, trx, domainId, [transfer.id]);
      }
    }
    if (!isRepeat) {
      await files.insertFile(domainId, {
        id: transfer.id,
        file_type: transfer.file_type,
        filename: transfer.filename,
        size: stored.size,
        sha256: stored.sha256,
        status,
        user_id: null,
        device_id: transfer.device_id,
        command_id: transfer.command_id,
        execution_id: transfer.execution_id,
        create_time: now,
      });
    }
    await transfers.moveTransfer(domainId, transfer.id, "receiving", {
      state: "completed",
      file_id: fileId,
      finish_time: now,
    });
    await files.refreshDeviceFileFlags(domainId, [transfer.device_id]);
    if (isRetained && !isRepeat) {
      await enqueueRetention(ctx, trx, domainId, transfer.device_id, transfer.file_type);
    }
    const event: FileUploadedEvent = {
      domainId,
      deviceId: transfer.device_id,
      fileId,
      kind: transfer.file_type,
      commandId: transfer.command_id,
      executionId: transfer.execution_id,
      size: stored.size,
      sha256: stored.sha256,
      status,
      isRepeat,
    };
    await ctx.jobs.emit(trx, FILE_UPLOADED_EVENT, event, { domainId });
  });
}

/** An upload that stored nothing: too large is final, a cut-off one may be tried again. */
async function releaseUpload(ctx: AppContext, grant: TransferGrant, error: unknown): Promise<void> {
  const repo = fileTransfersRepo(ctx.db);
  const transfer = await repo.findTransferAcrossDomains(grant.fileId);
  if (!transfer) return;
  if (error instanceof FileTooLargeError) {
    await repo.moveTransfer(transfer.domain_id, transfer.id, "receiving", {
      state: "failed",
      error: `larger than ${error.maxBytes} bytes`,
      finish_time: ctx.now(),
    });
    return;
  }
  await repo.moveTransfer(transfer.domain_id, transfer.id, "receiving", { state: "expected" });
}

/**
 * The transfer route's hooks in production (app.ts): a download URL reaches only a completed file
 * of the router's domain; an upload URL only the transfer written for that router, once at a time,
 * within its size limit; a stored upload is recorded, and a refused one releases its slot.
 */
export function createFileTransferHooks(ctx: AppContext): TransferHooks {
  return {
    async authorize(grant) {
      if (grant.method === "GET") await authorizeDownload(ctx, grant);
      else await claimUpload(ctx, grant);
    },
    async maxUploadBytes(grant) {
      const transfer = await fileTransfersRepo(ctx.db).findTransferAcrossDomains(grant.fileId);
      return transfer ? Number(transfer.max_bytes) : DEVICE_UPLOAD_MAX_BYTES;
    },
    onUploaded: (grant, stored) => recordUpload(ctx, grant, stored),
    onUploadFailed: (grant, error) => releaseUpload(ctx, grant, error),
  };
}
