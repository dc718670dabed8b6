import {
  type CommonFilesRequest,
  type CommonFileType,
  CSV_EXPORT_CHUNK,
  type DeviceFileType,
  type FileDto,
  fileTypeAccepts,
  isCommonFileType,
  isFileDeletable,
  plainFileName,
} from "@cellfleet/contract";
import { assertCan } from "../../platform/auth/permissions";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { takeTransactionLock } from "../../platform/db/locks";
import { AppError } from "../../platform/errors";
import type { CsvCell } from "../../platform/http/csv";
import { keysetPages } from "../../platform/http/csv-export";
import { type ByteRange, type FileRead, isStorageKey } from "../../platform/storage/file-storage";
import { parseRangeHeader } from "../../platform/storage/http-range";
import { assertDevicesInTagScope } from "../devices/device-scope.guard";
import { requireDeviceDomain } from "../devices/devices.service";
import { toFileDto } from "./files.mapper";
import { type FileScope, filesRepo } from "./files.repo";
import { enqueueBlobDeletes } from "./files-queue";

/** The domain whose files a session reaches; superusers have none (PERMISSION_DENIED). */
export const requireFilesDomain = requireDeviceDomain;

/** The lock that serialises names of one type in a domain, so two uploads cannot both take one. */
export function fileNameLock(domainId: string, fileType: string, filename: string): string {
  return `files:name:${domainId}:${fileType}:${filename.toLowerCase()}`;
}

/**
 * What POST /api/commonfiles lists for a body: no body, the common files; a `device_id`, that
 * router's files (of one type, and one command's, when given); a common `file_type` alone, that type.
 */
async function fileScopeOf(
  ctx: AppContext,
  domainId: string,
  request: CommonFilesRequest,
): Promise<FileScope> {
  const fileType = request?.file_type;
  if (request?.device_id) {
    if (!(await filesRepo(ctx.db).findDevice(domainId, request.device_id)))
      throw new AppError("DEVICE_NOT_FOUND");
    // The device page's "common files" tab shows the domain's common files of that type.
    if (fileType && isCommonFileType(fileType)) return { deviceId: null, fileType };
    return { deviceId: request.device_id, fileType, commandId: request.command_id };
  }
  if (fileType && !isCommonFileType(fileType)) {
    throw new AppError("NOT_ENOUGH_PARAMS", "Name the device whose backups, journals or reports to list");
  }
  return { deviceId: null, fileType };
}

/** POST /api/commonfiles: the files of the body's scope (fileScopeOf), newest first. */
export async function listFiles(
  ctx: AppContext,
  session: SessionContext,
  request: CommonFilesRequest,
): Promise<FileDto[]> {
  const domainId = requireFilesDomain(session);
  const scope = await fileScopeOf(ctx, domainId, request);
  const repo = filesRepo(ctx.db);
  const rows =
    scope.deviceId === null
      ? await repo.listCommonFiles(domainId, scope.fileType as CommonFileType | undefined)
      : await repo.listDeviceFiles(domainId, scope.deviceId, {
          fileType: scope.fileType as DeviceFileType | undefined,
          commandId: scope.commandId,
        });
  return rows.map(toFileDto);
}

/**
 * A router's file is its router's: one of a router outside the caller's tags is not found, as
 * another domain's (ADR 041). Common files belong to no router.
 */
async function assertFilesInTagScope(
  ctx: AppContext,
  session: SessionContext,
  rows: readonly { device_id: string | null }[],
): Promise<void> {
  const devices = rows.map((row) => row.device_id).filter((id): id is string => id !== null);
  await assertDevicesInTagScope(ctx, session, devices).catch((error: unknown) => {
    throw error instanceof AppError ? new AppError("FILE_NOT_FOUND") : error;
  });
}

/** One file of the session's domain; another domain's id answers FILE_NOT_FOUND like a missing one. */
export async function readFile(ctx: AppContext, session: SessionContext, fileId: string): Promise<FileDto> {
  const domainId = requireFilesDomain(session);
  // An id that could not be one (a path, a NUL) names no file: it never reaches a query.
  if (!isStorageKey(fileId)) throw new AppError("FILE_NOT_FOUND");
  const row = await filesRepo(ctx.db).findFile(domainId, fileId);
  if (!row) throw new AppError("FILE_NOT_FOUND");
  await assertFilesInTagScope(ctx, session, [row]);
  return toFileDto(row);
}

/** An open download: the file, what storage streams, and whether it is one range of it. */
export interface FileDownload {
  file: FileDto;
  read: FileRead | null;
  /** The range answered (206), the whole file (200), or a range past the end (416). */
  kind: "whole" | "partial" | "unsatisfiable";
}

/** GET /api/file/{id}: the file's blob, or the range a Range header asks for. */
export async function openFileDownload(
  ctx: AppContext,
  session: SessionContext,
  fileId: string,
  rangeHeader: string | undefined,
): Promise<FileDownload> {
  const file = await readFile(ctx, session, fileId);
  // Listed to everyone who sees the router, but its contents (keys, passwords) are not for operators.
  if (file.file_type === "backup") assertCan(session, "files.downloadBackups");
  const wanted = parseRangeHeader(rangeHeader, file.size);
  if (wanted.kind === "unsatisfiable") return { file, read: null, kind: "unsatisfiable" };
  const range: ByteRange | undefined = wanted.kind === "partial" ? wanted.range : undefined;
  const read = await ctx.storage.get(fileId, range);
  return { file, read, kind: wanted.kind };
}

/** POST /api/files/{id} with a name: renames a common file; the name must fit its type and be free. */
export async function renameFile(
  ctx: AppContext,
  session: SessionContext,
  fileId: string,
  requested: string,
): Promise<FileDto> {
  const domainId = requireFilesDomain(session);
  const filename = plainFileName(requested);
  if (filename.length === 0) throw new AppError("BAD_REQUEST", "The file needs a name");
  if (!isStorageKey(fileId)) throw new AppError("FILE_NOT_FOUND");
  return ctx.jobs.transaction(async (trx) => {
    const repo = filesRepo(trx);
    const [file] = await repo.lockFiles(domainId, [fileId]);
    if (!file) throw new AppError("FILE_NOT_FOUND");
    if (file.device_id !== null || !isCommonFileType(file.file_type)) {
      throw new AppError("OPERATION_IS_NOT_SUPPORTED", "A router's files keep the name they came with");
    }
    if (!isFileDeletable({ metadata: { user_id: file.user_id } })) {
      throw new AppError("ACCESS_DENIED", "System files cannot be changed");
    }
    if (!fileTypeAccepts(file.file_type, filename)) {
      throw new AppError("INVALID_FILE_TYPE", `"${filename}" does not fit a file of type ${file.file_type}`);
    }
    if (filename !== file.filename) {
      await takeTransactionLock(trx, fileNameLock(domainId, file.file_type, filename));
      const isSameNameOtherCase = filename.toLowerCase() === file.filename.toLowerCase();
      if (!isSameNameOtherCase && (await repo.hasCommonFileNamed(domainId, file.file_type, filename))) {
        throw new AppError("FILE_EXISTS", `A file named "${filename}" exists already`);
      }
      await repo.renameFile(domainId, fileId, filename);
    }
    const row = await repo.findFile(domainId, fileId);
    if (!row) throw new AppError("FILE_NOT_FOUND");
    return toFileDto(row);
  });
}

/**
 * DELETE /api/file/{id} and /api/file/many (admins): all of them or none. Every id must be a file
 * of the domain (FILE_NOT_FOUND), none a 'system' file (ACCESS_DENIED). The rows go at once; the
 * blobs by jobs queued in the same transaction.
 */
export async function deleteFiles(
  ctx: AppContext,
  session: SessionContext,
  targets: readonly string[],
): Promise<number> {
  const domainId = requireFilesDomain(session);
  const ids = [...new Set(targets)];
  if (ids.length === 0) throw new AppError("FILES_LIST_EMPTY", "Choose the files to delete");
  if (!ids.every(isStorageKey)) throw new AppError("FILE_NOT_FOUND");
  return ctx.jobs.transaction(async (trx) => {
    const repo = filesRepo(trx);
    const rows = await repo.lockFiles(domainId, ids);
    if (rows.length !== ids.length) throw new AppError("FILE_NOT_FOUND");
    await assertFilesInTagScope(ctx, session, rows);
    if (rows.some((row) => !isFileDeletable({ metadata: { user_id: row.user_id } }))) {
      throw new AppError("ACCESS_DENIED", "System files cannot be deleted");
    }
    const deleted = await repo.deleteFiles(domainId, ids);
    await enqueueBlobDeletes(ctx, trx, domainId, ids);
    const devices = [...new Set(rows.map((row) => row.device_id).filter((id): id is string => id !== null))];
    await repo.refreshDeviceFileFlags(domainId, devices);
    return deleted;
  });
}

/** Columns of files.csv, as the lists show them. */
export const FILES_CSV_COLUMNS = [
  "filename",
  "file_type",
  "size",
  "sha256",
  "create_date",
  "status",
  "user",
] as const;

/** POST /api/files/export: what POST /api/commonfiles lists for the same body, a keyset page a yield. */
export async function* exportFilesRows(
  ctx: AppContext,
  session: SessionContext,
  request: CommonFilesRequest,
): AsyncGenerator<CsvCell[][]> {
  const domainId = requireFilesDomain(session);
  const scope = await fileScopeOf(ctx, domainId, request);
  const repo = filesRepo(ctx.db);
  const pages = keysetPages(
    (after: string | null, limit) => repo.listFilesAfter(domainId, scope, after, limit),
    (row) => row.id,
    CSV_EXPORT_CHUNK,
  );
  for await (const rows of pages) {
    yield rows
      .map(toFileDto)
      .map((file) => [
        file.filename,
        file.file_type,
        file.size,
        file.sha256,
        new Date(file.create_date).toISOString(),
        file.status,
        file.metadata.user_name ?? file.metadata.user_id,
      ]);
  }
}
