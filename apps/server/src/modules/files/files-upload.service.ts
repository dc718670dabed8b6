import {
  type CommonFileType,
  expectedExtension,
  FILE_NAME_MAX_LENGTH,
  type FileDto,
  fileKindFor,
  fileTypeAccepts,
  plainFileName,
  UPLOAD_MAX_BYTES,
} from "@cellfleet/contract";
import type { SessionContext } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { takeTransactionLock } from "../../platform/db/locks";
import { runPendingSaveWork } from "../../platform/db/unit-of-work";
import { AppError } from "../../platform/errors";
import { FileTooLargeError, newStorageKey, type StoredFile } from "../../platform/storage/file-storage";
import { toFileDto } from "./files.mapper";
import { filesRepo } from "./files.repo";
import { fileNameLock, requireFilesDomain } from "./files.service";
import { enqueueBlobDeletes } from "./files-queue";

/** The largest common file accepted: spec section 9 refuses 25 MB or more. */
export const COMMON_UPLOAD_MAX_BYTES = UPLOAD_MAX_BYTES - 1;

/**
 * The largest file of a type: a firmware image up to FIRMWARE_MAX_MB (vendor images are larger than
 * people's files; issue 27 item 15), any other common file under section 9's 25 MB.
 */
export function uploadLimitOf(ctx: AppContext, fileType: CommonFileType): number {
  return fileType === "firmware" ? ctx.config.firmwareFetch.maxBytes : COMMON_UPLOAD_MAX_BYTES;
}

/**
 * What a multipart request may carry besides the file's bytes (part headers, a few small fields):
 * a request declaring more than the limit plus this is refused before a byte is stored.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** The file part of an upload as the route hands it over, its bytes not read yet. */
export interface IncomingUpload {
  /** The name the browser sent (any path in it is dropped). */
  filename: string;
  /** The part's Content-Transfer-Encoding: `7bit`, `8bit` or `binary` are the bytes themselves. */
  transferEncoding: string;
  /** The bytes; `truncated` when the parser cut them off at its own limit. */
  stream: NodeJS.ReadableStream & { truncated?: boolean };
  /** What the whole request declares (Content-Length), when it does. */
  declaredBytes: number | null;
  /** The error the multipart parser failed the bytes with (a body cut short), or null. */
  parseError(): unknown;
}

const PLAIN_ENCODINGS = new Set(["7bit", "8bit", "binary"]);

function tooLarge(filename: string, limit: number): AppError {
  const text =
    limit === COMMON_UPLOAD_MAX_BYTES
      ? `"${filename}" is 25 MB or more`
      : `"${filename}" is larger than ${Math.round(limit / (1024 * 1024))} MB (FIRMWARE_MAX_MB)`;
  return new AppError("BAD_REQUEST", text, { status: 413 });
}

/** Checks what can be checked before a byte is stored; answers the name to keep. */
function checkBeforeStoring(fileType: CommonFileType, upload: IncomingUpload, limit: number): string {
  // A browser sends the name in UTF-8; bytes that are not UTF-8 arrive as replacement characters.
  if (upload.filename.includes("\uFFFD")) {
    throw new AppError("UNSUPPORTED_ENCODING", "The file name is not UTF-8");
  }
  // RFC 7578 forbids other transfer encodings in form data; decoding base64 here is not our job.
  if (!PLAIN_ENCODINGS.has(upload.transferEncoding.toLowerCase())) {
    throw new AppError(
      "UNSUPPORTED_ENCODING",
      `Transfer encoding ${upload.transferEncoding} is not supported`,
    );
  }
  const filename = plainFileName(upload.filename);
  if (filename.length === 0) throw new AppError("NOTHING_TO_UPLOAD", "The file has no name");
  if (filename.length > FILE_NAME_MAX_LENGTH) {
    throw new AppError("BAD_REQUEST", `A file name may have at most ${FILE_NAME_MAX_LENGTH} characters`);
  }
  if (!fileTypeAccepts(fileType, filename)) {
    const wanted = expectedExtension(fileType);
    throw new AppError(
      "INVALID_FILE_TYPE",
      wanted
        ? `"${filename}" is not a .${wanted} file`
        : `"${filename}" is a ${fileKindFor(filename)}, not a file`,
    );
  }
  if (upload.declaredBytes !== null && upload.declaredBytes > limit + MULTIPART_OVERHEAD_BYTES) {
    throw tooLarge(filename, limit);
  }
  return filename;
}

/** Streams the part into storage under `key`, within the limit; parse failures are FILE_PARSING_FAILED. */
async function storeStream(
  ctx: AppContext,
  key: string,
  filename: string,
  upload: IncomingUpload,
  limit: number,
) {
  let stored: StoredFile;
  try {
    stored = await ctx.storage.put(key, upload.stream, { maxBytes: limit });
  } catch (error) {
    if (error instanceof FileTooLargeError) throw tooLarge(filename, limit);
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge(filename, limit);
    if (upload.parseError() !== null) {
      throw new AppError("FILE_PARSING_FAILED", "The upload could not be read to its end");
    }
    throw error;
  }
  return stored;
}

/** Queues the removal of a blob no row will name. */
async function forgetBlob(ctx: AppContext, domainId: string, key: string): Promise<void> {
  await ctx.jobs.transaction((trx) => enqueueBlobDeletes(ctx, trx, domainId, [key]));
}

/**
 * POST /api/file/{kind} and the base upload URL (spec sections 5 and 7): a common file streamed to
 * storage, never held whole in memory. The type is the one asked for, or the extension's when none
 * is (.bin firmware, .ipk package, otherwise file). Refusals: nothing sent NOTHING_TO_UPLOAD, a name
 * that does not fit the type INVALID_FILE_TYPE, 25 MB or more (a firmware image: over FIRMWARE_MAX_MB)
 * BAD_REQUEST with 413 (naming the file, cut off while streaming), a name taken FILE_EXISTS, a name or body not in plain UTF-8
 * UNSUPPORTED_ENCODING, a broken multipart body FILE_PARSING_FAILED.
 */
export async function uploadCommonFile(
  ctx: AppContext,
  session: SessionContext,
  askedType: CommonFileType | null,
  upload: IncomingUpload | null,
): Promise<FileDto> {
  const domainId = requireFilesDomain(session);
  if (!upload) throw new AppError("NOTHING_TO_UPLOAD", "Send the file in the multipart field `file`");
  const fileType = askedType ?? fileKindFor(plainFileName(upload.filename));
  const limit = uploadLimitOf(ctx, fileType);
  const filename = checkBeforeStoring(fileType, upload, limit);
  // Refused early when the name is taken, so a 24 MB body is not sent for nothing.
  if (await filesRepo(ctx.db).hasCommonFileNamed(domainId, fileType, filename)) {
    throw new AppError("FILE_EXISTS", `A file named "${filename}" exists already`);
  }
  const key = newStorageKey();
  const stored = await storeStream(ctx, key, filename, upload, limit);
  if (upload.stream.truncated) {
    await forgetBlob(ctx, domainId, key);
    throw tooLarge(filename, limit);
  }
  if (stored.size === 0) {
    await forgetBlob(ctx, domainId, key);
    throw new AppError("NOTHING_TO_UPLOAD", `"${filename}" is empty`);
  }
  const row = await ctx.jobs.transaction(async (trx) => {
    const repo = filesRepo(trx);
    await takeTransactionLock(trx, fileNameLock(domainId, fileType, filename));
    if (await repo.hasCommonFileNamed(domainId, fileType, filename)) {
      await enqueueBlobDeletes(ctx, trx, domainId, [key]);
      return null;
    }
    await repo.insertFile(domainId, {
      id: key,
      file_type: fileType,
      filename,
      size: stored.size,
      sha256: stored.sha256,
      status: "completed",
      user_id: session.user.id,
      create_time: ctx.now(),
    });
    // The call keeps its own transactions (the bytes stream first): its audit entry goes in this one.
    await runPendingSaveWork(trx, { id: key, name: filename });
    return repo.findFile(domainId, key);
  });
  if (!row) throw new AppError("FILE_EXISTS", `A file named "${filename}" exists already`);
  return toFileDto(row);
}
