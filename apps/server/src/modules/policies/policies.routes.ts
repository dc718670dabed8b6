import {
  CreatePolicySchema,
  DictionaryKindSchema,
  DomainPoliciesRequestSchema,
  PolicyDetailSchema,
  PolicyListAnswerSchema,
  PolicyListRequestSchema,
  UPLOAD_MAX_BYTES,
  UpdatePolicySchema,
} from "@cellfleet/contract";
import multipart from "@fastify/multipart";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError } from "../../platform/errors";
import { hasFields, savesWhenFields } from "../../platform/http/read-or-save";
import { ERROR_RESPONSES } from "../../platform/http/schemas";
import {
  createPolicy,
  type DictionaryUpload,
  listDomainPolicies,
  listPolicies,
  readPolicy,
  updatePolicy,
  uploadDictionary,
} from "./policies-admin.service";

const PolicyIdParamsSchema = z.object({ policyId: z.string().min(1).max(64) });

/** Security policies: lists answer empty without the accounting plugin; pages and changes need it (the table). */
export const policiesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Registered here only, so multipart bodies reach no other route.
  await app.register(multipart, { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 10 } });

  app.post(
    "/policies/",
    {
      schema: {
        tags: ["policies"],
        summary: "The policy list (default hidden)",
        body: PolicyListRequestSchema.nullish(),
        response: { 200: PolicyListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "policies.list" },
    },
    async (request) => ({ items: await listPolicies(ctx, requireSession(request), request.body?.search) }),
  );

  app.post(
    "/accounting/domain",
    {
      schema: {
        tags: ["policies"],
        summary: "The policies a domain may use (for policy selects)",
        body: DomainPoliciesRequestSchema.nullish(),
        response: { 200: PolicyListAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "policies.list" },
    },
    async (request) => ({
      items: await listDomainPolicies(ctx, requireSession(request), request.body?.domain_id),
    }),
  );

  app.post(
    "/policy/new",
    {
      schema: {
        tags: ["policies"],
        summary: "Create a policy (superuser)",
        body: CreatePolicySchema,
        response: { 200: PolicyDetailSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "policies.create" },
    },
    async (request) => createPolicy(ctx, requireSession(request), request.body),
  );

  app.post(
    "/policy/:policyId",
    {
      schema: {
        tags: ["policies"],
        summary: "Read a policy (no fields) or change it",
        params: PolicyIdParamsSchema,
        body: UpdatePolicySchema.nullish(),
        response: { 200: PolicyDetailSchema, ...ERROR_RESPONSES },
      },
      config: { saves: savesWhenFields, permission: { read: "policies.view", save: "policies.edit" } },
    },
    async (request) => {
      const session = requireSession(request);
      if (!hasFields(request.body)) return readPolicy(ctx, session, request.params.policyId);
      return updatePolicy(ctx, session, request.params.policyId, request.body ?? {});
    },
  );

  app.post(
    "/policy/:policyId/dictionary/:kind",
    {
      schema: {
        tags: ["policies"],
        summary: "Upload forbidden sequences or phrases (multipart field `file`, .txt or .csv, UTF-8)",
        params: PolicyIdParamsSchema.extend({ kind: DictionaryKindSchema }),
        response: { 200: PolicyDetailSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "policies.edit" },
    },
    async (request) => {
      const session = requireSession(request);
      let upload: DictionaryUpload | null = null;
      if (request.isMultipart()) {
        try {
          const file = await request.file();
          if (file) upload = { filename: file.filename, bytes: await file.toBuffer() };
        } catch (error) {
          if ((error as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
            throw new AppError("BAD_REQUEST", "The file is too large", { status: 413 });
          }
          throw new AppError("DICTIONARY_FILE_NOT_GIVEN", "The upload could not be read");
        }
      }
      return uploadDictionary(ctx, session, request.params.policyId, request.params.kind, upload);
    },
  );
};
