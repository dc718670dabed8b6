import type { DeviceFileType } from "@cellfleet/contract";
import type { Kysely } from "kysely";
import type { AppContext } from "../../platform/context";
import type { DB } from "../../platform/db/schema";

// The files feature's job kinds and events, and the helpers that queue them inside a service's
// transaction (ADR 007): a blob is removed, and copies are counted, only once the change committed.

/** Removes one blob from storage; its row is already gone. */
export const FILE_BLOB_DELETE_JOB = "files.deleteBlob";
/** Applies the domain's copies to one router's backups or journals. */
export const FILE_RETENTION_JOB = "files.retention";
/** Queues {@link FILE_RETENTION_JOB} for every router of a domain holding copies of a type (its copies went down). */
export const FILE_DOMAIN_RETENTION_JOB = "files.retentionDomain";
/** The event the devices feature emits when routers are deleted; files forgets theirs. */
export { DEVICE_DELETED_EVENT } from "../devices/devices.service";
/** The event emitted when a router's upload is recorded (or noted as a repeat). */
export const FILE_UPLOADED_EVENT = "file.uploaded";

/** Payload of {@link FILE_UPLOADED_EVENT}: what the actions feature needs to finish a command's execution. */
export interface FileUploadedEvent extends Record<string, unknown> {
  domainId: string;
  deviceId: string;
  /** The file the upload is now: its own id, or an identical earlier backup's when `isRepeat`. */
  fileId: string;
  kind: DeviceFileType;
  commandId: string;
  executionId: string;
  size: number;
  sha256: string;
  status: "completed" | "failed";
  /** The router sent a backup identical to its newest one: noted on that file, not stored again. */
  isRepeat: boolean;
}

/** Queues the removal of blobs whose rows this transaction deletes (or never wrote). */
export async function enqueueBlobDeletes(
  ctx: AppContext,
  trx: Kysely<DB>,
  domainId: string | null,
  keys: readonly string[],
): Promise<void> {
  for (const key of keys) {
    await ctx.jobs.enqueue(trx, { kind: FILE_BLOB_DELETE_JOB, payload: { key }, domainId });
  }
}

/** Queues retention for a router's copies of one type, in the transaction that added a copy. */
export async function enqueueRetention(
  ctx: AppContext,
  trx: Kysely<DB>,
  domainId: string,
  deviceId: string,
  fileType: DeviceFileType,
): Promise<void> {
  await ctx.jobs.enqueue(trx, {
    kind: FILE_RETENTION_JOB,
    payload: { deviceId, fileType },
    domainId,
  });
}

/**
 * Queues retention for every router of the domain holding copies of a type, in the transaction
 * that lowered the domain's copies: the files obey the new setting without waiting for the next upload.
 */
export async function enqueueDomainRetention(
  ctx: AppContext,
  trx: Kysely<DB>,
  domainId: string,
  fileType: DeviceFileType,
): Promise<void> {
  await ctx.jobs.enqueue(trx, { kind: FILE_DOMAIN_RETENTION_JOB, payload: { fileType }, domainId });
}

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "files.deleteBlob": { key: string };
    "files.retention": { deviceId: string; fileType: DeviceFileType };
    "files.retentionDomain": { fileType: DeviceFileType };
  }
}

declare module "../../platform/jobs/outbox-events" {
  interface OutboxPayloads {
    "file.uploaded": FileUploadedEvent;
  }
}
