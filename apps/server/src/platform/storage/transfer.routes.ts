import { PassThrough } from "node:stream";
import { UPLOAD_MAX_BYTES } from "@cellfleet/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { AppContext } from "../context";
import { AppError } from "../errors";
import { dropRestOfBody } from "../http/refused-body";
import { ERROR_RESPONSES } from "../http/schemas";
import { FileTooLargeError, type StoredFile } from "./file-storage";
import { parseRangeHeader } from "./http-range";
import type { TransferGrant } from "./signed-url";

/**
 * What the files feature decides about a transfer whose signature holds. Each hook is optional;
 * with none, the signature alone authorises (it names the file, the device and the method).
 */
export interface TransferHooks {
  /** Refuses with an AppError (ACCESS_DENIED: the file is not this device's; FILE_NOT_FOUND…). */
  authorize?(grant: TransferGrant): Promise<void>;
  /** The largest body a PUT may carry; defaults to just under the 25 MB upload limit of §9. */
  maxUploadBytes?(grant: TransferGrant): Promise<number>;
  /** Runs once a PUT's body is stored; throwing refuses the upload and the stored file is deleted. */
  onUploaded?(grant: TransferGrant, stored: StoredFile): Promise<void>;
  /**
   * Runs when an authorised PUT stored nothing: refused as too large (FileTooLargeError), cut off,
   * or failed in storage. Lets the files feature release what `authorize` claimed.
   */
  onUploadFailed?(grant: TransferGrant, error: unknown): Promise<void>;
}

/** Spec §9: uploads of 25 MB or more are refused, so the largest accepted is one byte less. */
const DEFAULT_MAX_UPLOAD_BYTES = UPLOAD_MAX_BYTES - 1;

/** Mounted under /api, so signed URLs (TRANSFER_PATH_PREFIX in signed-url.ts) land here. */
const TRANSFER_ROUTE = "/transfer/:fileId";

const TransferParamsSchema = z.object({ fileId: z.string() });
const TransferQuerySchema = z.object({
  device: z.string().optional(),
  method: z.string().optional(),
  expires: z.string().optional(),
  sig: z.string().optional(),
});
const UploadedSchema = z.object({ size: z.number().int(), sha256: z.string() });

function refuseTooLarge(request: FastifyRequest["raw"], reply: FastifyReply, maxBytes: number): never {
  // The sender reads the refusal, not a reset: the rest of its body is read and dropped for a while.
  dropRestOfBody(request, reply.raw);
  throw new FileTooLargeError(maxBytes);
}

/**
 * GET and PUT /api/transfer/{fileId}?device=…&method=…&expires=…&sig=…: the only way a device
 * reaches a file over HTTP. Public in the session guard's sense: the signed URL is the whole
 * authorisation (docs/device-protocol.md 7).
 */
export const transferRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; hooks: TransferHooks }> = async (
  app,
  { ctx, hooks },
) => {
  // Uploads are any bytes of any type: the body reaches the handler as the raw stream, unread,
  // so neither the JSON parser nor the 1 MiB body limit touches it (this scope only).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, payload, done) => done(null, payload));

  const authorize = async (fileId: string, query: z.infer<typeof TransferQuerySchema>, method: string) => {
    const grant = ctx.transferUrls.verify(fileId, query, method);
    await hooks.authorize?.(grant);
    return grant;
  };

  /** Streams an authorised PUT's body into storage under the grant's key, within the size limit. */
  const receive = async (
    grant: TransferGrant,
    raw: FastifyRequest["raw"],
    contentLength: string | undefined,
    reply: FastifyReply,
  ): Promise<StoredFile> => {
    const maxBytes = (await hooks.maxUploadBytes?.(grant)) ?? DEFAULT_MAX_UPLOAD_BYTES;
    const declared = Number(contentLength);
    if (Number.isFinite(declared) && declared > maxBytes) refuseTooLarge(raw, reply, maxBytes);
    // The request itself is piped, not handed over: storage failing its stream must not destroy
    // the connection before the refusal is sent.
    const body = new PassThrough();
    raw.once("error", (error) => body.destroy(error));
    raw.once("close", () => {
      if (!raw.complete) body.destroy(new Error("The upload was interrupted"));
    });
    raw.pipe(body);
    try {
      return await ctx.storage.put(grant.fileId, body, { maxBytes });
    } catch (error) {
      raw.unpipe(body);
      raw.resume();
      if (error instanceof FileTooLargeError) refuseTooLarge(raw, reply, maxBytes);
      throw error;
    }
  };

  app.get(
    TRANSFER_ROUTE,
    {
      schema: {
        tags: ["files"],
        summary: "A device downloads a file through a signed URL (Range supported)",
        params: TransferParamsSchema,
        querystring: TransferQuerySchema,
        response: {
          200: z.unknown().describe("the file (application/octet-stream)"),
          206: z.unknown().describe("the asked range of the file"),
          ...ERROR_RESPONSES,
        },
      },
      config: { isPublic: true },
    },
    async (request, reply) => {
      const grant = await authorize(request.params.fileId, request.query, request.method);
      const info = await ctx.storage.stat(grant.fileId);
      if (!info) throw new AppError("FILE_NOT_FOUND", "No such file");
      const wanted = parseRangeHeader(request.headers.range, info.size);
      reply
        .header("accept-ranges", "bytes")
        .type("application/octet-stream")
        .header("cache-control", "no-store");
      if (wanted.kind === "unsatisfiable") {
        return reply
          .code(416)
          .header("content-range", `bytes */${info.size}`)
          .type("application/json; charset=utf-8")
          .send({ code: "BAD_REQUEST", message: `The range is outside the file's ${info.size} bytes` });
      }
      const read = await ctx.storage.get(grant.fileId, wanted.kind === "partial" ? wanted.range : undefined);
      const length = read.range.end - read.range.start + 1;
      reply.header("content-length", length);
      if (wanted.kind === "partial") {
        reply.code(206).header("content-range", `bytes ${read.range.start}-${read.range.end}/${read.size}`);
      }
      return reply.send(read.stream);
    },
  );

  app.put(
    TRANSFER_ROUTE,
    {
      schema: {
        tags: ["files"],
        summary: "A device uploads a file (the raw body) through a signed URL",
        params: TransferParamsSchema,
        querystring: TransferQuerySchema,
        response: { 200: UploadedSchema, ...ERROR_RESPONSES },
      },
      config: { isPublic: true },
    },
    async (request, reply) => {
      const grant = await authorize(request.params.fileId, request.query, request.method);
      let stored: StoredFile;
      try {
        stored = await receive(grant, request.raw, request.headers["content-length"], reply);
      } catch (error) {
        await hooks.onUploadFailed?.(grant, error);
        throw error;
      }
      try {
        await hooks.onUploaded?.(grant, stored);
      } catch (error) {
        await ctx.storage.delete(grant.fileId);
        throw error;
      }
      return stored;
    },
  );
};
