import { DeviceImportPlanSchema, DeviceImportResultSchema, UPLOAD_MAX_BYTES } from "@cellfleet/contract";
import multipart from "@fastify/multipart";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { ERROR_RESPONSES } from "../../platform/http/schemas";
import type { ImportUpload } from "./device-import.file";
import { applyDeviceImport, checkDeviceImport } from "./device-import.service";

const PlanParamsSchema = z.object({ plan: z.string().regex(/^[0-9a-f]{32}$/) });

/** The uploaded file of a multipart request, read whole (25 MB at most); null when none was sent. */
async function readImportUpload(request: FastifyRequest): Promise<ImportUpload | null> {
  if (!request.isMultipart()) return null;
  try {
    const file = await request.file();
    if (file?.fieldname !== "file") return null;
    return { filename: file.filename, bytes: await file.toBuffer() };
  } catch (error) {
    if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
      throw new AppError("BAD_REQUEST", "The file is too large", { status: 413 });
    }
    throw new AppError("FILE_PARSING_FAILED", "The multipart body could not be read");
  }
}

/** Routers from a CSV or XLSX file: a dry run, then the same file applied (ADR 042). */
export const deviceImportRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Registered here only, so multipart bodies reach no other route.
  await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10 } });

  app.post(
    "/devices/import/check",
    {
      schema: {
        tags: ["devices"],
        summary:
          "What a CSV or XLSX file of routers would do (multipart field `file`; admins); writes nothing",
        response: { 200: DeviceImportPlanSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.importCheck" },
    },
    async (request) => checkDeviceImport(ctx, requireSession(request), await readImportUpload(request)),
  );

  app.post(
    "/devices/import/:plan",
    {
      schema: {
        tags: ["devices"],
        summary:
          "Apply the checked file (the same file, its plan from the check) in one transaction (admins)",
        params: PlanParamsSchema,
        response: { 200: DeviceImportResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.create" },
    },
    async (request) =>
      applyDeviceImport(ctx, requireSession(request), request.params.plan, await readImportUpload(request)),
  );
};
