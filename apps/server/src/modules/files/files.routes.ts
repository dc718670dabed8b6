import {
  CommonFilesRequestSchema,
  CommonFileTypeSchema,
  DeleteFilesRequestSchema,
  DeleteFilesResultSchema,
  FileListSchema,
  FileSchema,
  RenameFileSchema,
  UPLOAD_MAX_BYTES,
  UploadKindSchema,
} from "@cellfleet/contract";
import multipart from "@fastify/multipart";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { registerCsvExport } from "../../platform/http/csv-export";
import { dropRestOfBody } from "../../platform/http/refused-body";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  deleteFiles,
  exportFilesRows,
  FILES_CSV_COLUMNS,
  listFiles,
  openFileDownload,
  readFile,
  renameFile,
} from "./files.service";
import { type IncomingUpload, uploadCommonFile } from "./files-upload.service";

const FileIdParamsSchema = z.object({ fileId: z.string().min(1).max(128) });

/**
 * `Content-Disposition` naming a download both ways (RFC 6266): an ASCII stand-in for old clients
 * and the exact UTF-8 name in `filename*`.
 */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The file part of a multipart request, unread; null when none was sent. */
async function readUploadPart(request: FastifyRequest): Promise<IncomingUpload | null> {
  if (!request.isMultipart()) return null;
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await request.file();
  } catch {
    throw new AppError("FILE_PARSING_FAILED", "The multipart body could not be read");
  }
  if (!part) return null;
  if (part.fieldname !== "file") {
    part.file.resume();
    throw new AppError("NOTHING_TO_UPLOAD", "Send the file in the multipart field `file`");
  }
  // Listened to at once: the parser may fail the part before the service starts reading it.
  let parseError: unknown = null;
  part.file.on("error", (error: unknown) => {
    parseError = error;
  });
  const declared = Number(request.headers["content-length"]);
  return {
    parseError: () => parseError ?? (part.file as { errored?: unknown }).errored ?? null,
    filename: part.filename,
    transferEncoding: part.encoding,
    stream: part.file,
    declaredBytes: Number.isFinite(declared) ? declared : null,
  };
}

/**
 * Runs an upload; a refusal before the body was read drops the rest of it for a while, then closes
 * the connection, so the sender reads the refusal rather than a reset.
 */
async function handleUpload(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  fileType: z.infer<typeof CommonFileTypeSchema> | null,
) {
  const upload = await readUploadPart(request);
  try {
    return await uploadCommonFile(ctx, requireSession(request), fileType, upload);
  } catch (error) {
    if (upload && !(upload.stream as NodeJS.ReadableStream & { readableEnded?: boolean }).readableEnded) {
      upload.stream.resume();
      dropRestOfBody(request.raw, reply.raw);
    }
    throw error;
  }
}

/** Common files and device files: upload, lists, one file, download, rename, delete, export. */
export const filesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Registered here only, so multipart bodies reach no other route. The parser's own size limit
  // backs up the storage's (one byte under it, which names the file in its refusal): the larger of
  // people's files and firmware images (uploadLimitOf holds each type to its own).
  const fileSize = Math.max(UPLOAD_MAX_BYTES, ctx.config.firmwareFetch.maxBytes + 1);
  await app.register(multipart, {
    limits: { fileSize, files: 1, fields: 4, fieldSize: 4096, parts: 6 },
  });

  const uploadSchema = {
    tags: ["files"],
    consumes: ["multipart/form-data"],
    response: { 200: FileSchema, ...ERROR_RESPONSES },
  };

  app.post(
    "/file/:kind",
    {
      schema: {
        ...uploadSchema,
        summary: "Upload firmware (.bin), a package (.ipk) or a file (multipart field `file`, Token header)",
        params: z.object({ kind: UploadKindSchema }),
      },
      config: { saves: true, permission: "files.upload", unitOfWork: "service" },
    },
    async (request, reply) => handleUpload(ctx, request, reply, request.params.kind),
  );

  app.post(
    "/upload",
    {
      schema: {
        ...uploadSchema,
        summary: "Upload a common file, its type from the extension (.bin, .ipk, other)",
      },
      config: { saves: true, permission: "files.upload", unitOfWork: "service" },
    },
    async (request, reply) => handleUpload(ctx, request, reply, null),
  );

  app.post(
    "/upload/:file_type",
    {
      schema: {
        ...uploadSchema,
        summary: "Upload a common file of this type (file, package, firmware, bin)",
        params: z.object({ file_type: CommonFileTypeSchema }),
      },
      config: { saves: true, permission: "files.upload", unitOfWork: "service" },
    },
    async (request, reply) => handleUpload(ctx, request, reply, request.params.file_type),
  );

  app.post(
    "/commonfiles",
    {
      schema: {
        tags: ["files"],
        summary: "Common files (no body), or a router's files (device_id, file_type, command_id)",
        body: CommonFilesRequestSchema,
        response: { 200: FileListSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "files.view" },
    },
    async (request) => ({ items: await listFiles(ctx, requireSession(request), request.body) }),
  );

  registerCsvExport(app, "files", {
    body: CommonFilesRequestSchema,
    summary: "What /api/commonfiles lists for the same body",
    columns: FILES_CSV_COLUMNS,
    rows: (session, request) => exportFilesRows(ctx, session, request),
  });

  app.post(
    "/files/:fileId",
    {
      schema: {
        tags: ["files"],
        summary: "One file (no body), or a common file renamed (filename)",
        params: FileIdParamsSchema,
        body: RenameFileSchema.partial().nullish(),
        response: { 200: FileSchema, ...ERROR_RESPONSES },
      },
      config: {
        // As every read-or-save route: any field but the token makes it a save.
        saves: (request) =>
          typeof request.body === "object" &&
          request.body !== null &&
          Object.keys(request.body).some((key) => key !== "token"),
        permission: { read: "files.view", save: "files.upload" },
      },
    },
    async (request) => {
      const session = requireSession(request);
      if (!request.body?.filename) return readFile(ctx, session, request.params.fileId);
      return renameFile(ctx, session, request.params.fileId, request.body.filename);
    },
  );

  app.get(
    "/file/:fileId",
    {
      schema: {
        tags: ["files"],
        summary: "Download a file under its name (Range supported)",
        params: FileIdParamsSchema,
        response: {
          200: z.unknown().describe("the file (application/octet-stream)"),
          206: z.unknown().describe("the asked range of the file"),
          ...ERROR_RESPONSES,
        },
      },
      config: { permission: "files.view" },
    },
    async (request, reply) => {
      const download = await openFileDownload(
        ctx,
        requireSession(request),
        request.params.fileId,
        request.headers.range,
      );
      const { file, read } = download;
      reply
        .header("accept-ranges", "bytes")
        .header("cache-control", "private, no-store")
        .header("content-disposition", contentDisposition(file.filename));
      if (download.kind === "unsatisfiable" || !read) {
        return reply
          .code(416)
          .header("content-range", `bytes */${file.size}`)
          .send({ code: "BAD_REQUEST", message: `The range is outside the file's ${file.size} bytes` });
      }
      reply.type("application/octet-stream").header("content-length", read.range.end - read.range.start + 1);
      if (download.kind === "partial") {
        reply.code(206).header("content-range", `bytes ${read.range.start}-${read.range.end}/${read.size}`);
      }
      return reply.send(read.stream);
    },
  );

  app.delete(
    "/file/many",
    {
      schema: {
        tags: ["files"],
        summary: "Delete files (admins): all of them or none",
        body: DeleteFilesRequestSchema.partial().nullish(),
        response: { 200: DeleteFilesResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "files.delete", targetsAreNotRouters: true },
    },
    async (request) => ({
      deleted: await deleteFiles(ctx, requireSession(request), request.body?.targets ?? []),
    }),
  );

  app.delete(
    "/file/:fileId",
    {
      schema: {
        tags: ["files"],
        summary: "Delete a file (admins)",
        params: FileIdParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: DeleteFilesResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "files.delete" },
    },
    async (request) => ({
      deleted: await deleteFiles(ctx, requireSession(request), [request.params.fileId]),
    }),
  );
};
