import {
  type CommandFile,
  DEVICE_UPLOAD_MAX_BYTES,
  type DeviceFileType,
  deviceFileName,
  FILE_NAME_MAX_LENGTH,
  plainFileName,
} from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";
import { AppError } from "../../platform/errors";
import { newStorageKey } from "../../platform/storage/file-storage";
import { MAX_TRANSFER_URL_LIFETIME_MS } from "../../platform/storage/signed-url";
import { fileTransfersRepo } from "./file-transfers.repo";
import { filesRepo } from "./files.repo";

// The files side of a command (ADR 012): the `file` object a command carries to one router, made
// inside the actions feature's own transaction. A download names a file of the router's domain; an
// upload writes the record the arriving body is checked against (size limit, kind, router, command).

/** What a command's download asks of the files feature. */
export interface DeviceDownloadRequest {
  domainId: string;
  deviceId: string;
  fileId: string;
  /** When the URL stops working (ms since the epoch); FILE_URL_TTL_MINUTES from now by default. */
  expiresAt?: number;
}

/** What a command's upload asks of the files feature. */
export interface DeviceUploadRequest {
  domainId: string;
  deviceId: string;
  kind: DeviceFileType;
  commandId: string;
  executionId: string;
  /** The largest body accepted; at most (and by default) one byte under 25 MB. */
  maxBytes?: number;
  /** The name the file gets; `backup-IDENT-20260101-120000.tar.gz` and the like by default. */
  filename?: string;
}

/** The absolute URL of a signed path, at the address routers reach the console by (PUBLIC_URL). */
function absoluteUrl(ctx: AppContext, path: string): string {
  return new URL(path, ctx.config.publicUrl).toString();
}

function expiryOf(ctx: AppContext, expiresAt: number | undefined): number {
  const now = ctx.now().getTime();
  const expiry = expiresAt ?? now + ctx.config.fileUrlTtlMinutes * 60_000;
  if (!Number.isSafeInteger(expiry) || expiry <= now || expiry - now > MAX_TRANSFER_URL_LIFETIME_MS) {
    throw new AppError("BAD_REQUEST", "A file URL expires in the future, at most a day from now");
  }
  return expiry;
}

async function requireDevice(trx: Kysely<DB>, domainId: string, deviceId: string) {
  const device = await filesRepo(trx).findDevice(domainId, deviceId);
  if (!device) throw new AppError("DEVICE_NOT_FOUND");
  return device;
}

/**
 * The `file` of a command that makes one router download a file (firmware, package, common file,
 * a backup to restore): a signed GET URL with the name, size and SHA-256 the router checks.
 * COMMAND_FILE_NOT_FOUND when the file is not a completed file of that domain; DEVICE_NOT_FOUND
 * when the router is not the domain's.
 */
export async function prepareDeviceDownload(
  ctx: AppContext,
  trx: Kysely<DB>,
  request: DeviceDownloadRequest,
): Promise<CommandFile> {
  await requireDevice(trx, request.domainId, request.deviceId);
  const found = await filesRepo(trx).findFile(request.domainId, request.fileId);
  // Not a domain's file: a ready software rule's firmware, which a rollout sends (ADR 021).
  const software = found ? undefined : await fileTransfersRepo(trx).findSoftwareFile(request.fileId);
  const file = software ? { ...software, id: request.fileId, status: "completed" as const } : found;
  if (file?.status !== "completed") {
    throw new AppError("COMMAND_FILE_NOT_FOUND", "The command's file is not one of the domain's files");
  }
  const expiresAt = expiryOf(ctx, request.expiresAt);
  const path = ctx.transferUrls.sign({
    fileId: file.id,
    deviceId: request.deviceId,
    method: "GET",
    expiresAt,
  });
  return {
    url: absoluteUrl(ctx, path),
    method: "GET",
    expires_at: expiresAt,
    filename: file.filename,
    size: Number(file.size),
    sha256: file.sha256,
  };
}

/**
 * The `file` of a command that makes one router upload a backup, journal or report file: a signed
 * PUT URL to a fresh key, and the record the body is checked against when it arrives (the size
 * limit, the kind, the router) and attributed by (the command and its execution).
 */
export async function prepareDeviceUpload(
  ctx: AppContext,
  trx: Kysely<DB>,
  request: DeviceUploadRequest,
): Promise<CommandFile> {
  const device = await requireDevice(trx, request.domainId, request.deviceId);
  const maxBytes = request.maxBytes ?? DEVICE_UPLOAD_MAX_BYTES;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1 || maxBytes > DEVICE_UPLOAD_MAX_BYTES) {
    throw new AppError("BAD_REQUEST", `An upload may carry 1 to ${DEVICE_UPLOAD_MAX_BYTES} bytes`);
  }
  const now = ctx.now();
  const filename = plainFileName(request.filename ?? deviceFileName(request.kind, device.ident, now));
  if (filename.length === 0 || filename.length > FILE_NAME_MAX_LENGTH) {
    throw new AppError("BAD_REQUEST", "The upload's file name is empty or too long");
  }
  const expiresAt = expiryOf(ctx, undefined);
  const id = newStorageKey();
  await fileTransfersRepo(trx).insertTransfer(request.domainId, {
    id,
    device_id: request.deviceId,
    file_type: request.kind,
    command_id: request.commandId,
    execution_id: request.executionId,
    filename,
    max_bytes: maxBytes,
    state: "expected",
    expires_at: new Date(expiresAt),
    create_time: now,
  });
  const path = ctx.transferUrls.sign({ fileId: id, deviceId: request.deviceId, method: "PUT", expiresAt });
  return { url: absoluteUrl(ctx, path), method: "PUT", expires_at: expiresAt, filename };
}
