import {
  AddLicenseRequestSchema,
  LicenseAnswerSchema,
  LicenseFingerprintAnswerSchema,
  LicensesAnswerSchema,
  RefreshLicensesAnswerSchema,
  RefreshLicensesRequestSchema,
  UploadLicenseRequestSchema,
} from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AppContext } from "../../platform/context";
import { registerCsvExport } from "../../platform/http/csv-export";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import { exportLicensesRows, LICENSE_CSV_COLUMNS } from "./licences.export";
import { addLicense, getFingerprint, listLicenses, refreshLicenses, uploadLicense } from "./licences.service";

const TAGS = ["licences"];

/** The licence screens' calls (spec §2, §7): root's only. */
export const licencesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    "/licenses",
    {
      schema: {
        tags: TAGS,
        summary: "Every licence with its status, and the installation's routers against the licensed count",
        body: TokenOnlyBodySchema,
        response: { 200: LicensesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "licenses.view" },
    },
    async () => listLicenses(ctx),
  );

  registerCsvExport(app, "licenses", {
    body: TokenOnlyBodySchema,
    summary: "Every licence with its status and period, in the list's order",
    columns: LICENSE_CSV_COLUMNS,
    rows: () => exportLicensesRows(ctx),
  });

  app.post(
    "/licenses/new",
    {
      schema: {
        tags: TAGS,
        summary: "Add a licence key (64 hex); its activation runs as a job (KEY_ALREADY_EXISTS when known)",
        body: AddLicenseRequestSchema,
        response: { 200: LicenseAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "licenses.manage" },
    },
    async (request) => ({ item: await addLicense(ctx, request.body.key) }),
  );

  app.post(
    "/licenses/update",
    {
      schema: {
        tags: TAGS,
        summary: "Re-ask the licence service for one licence (id) or all",
        body: RefreshLicensesRequestSchema,
        response: { 200: RefreshLicensesAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "licenses.manage" },
    },
    async (request) => ({ items: await refreshLicenses(ctx, request.body?.id) }),
  );

  app.post(
    "/licenses/fingerprint",
    {
      schema: {
        tags: TAGS,
        summary: "This installation's digital print, for an offline licence file",
        body: TokenOnlyBodySchema,
        response: { 200: LicenseFingerprintAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "licenses.view" },
    },
    async () => getFingerprint(ctx),
  );

  app.post(
    "/licenses/upload",
    {
      schema: {
        tags: TAGS,
        summary: "Offline activation: a licence file the vendor signed for this installation",
        body: UploadLicenseRequestSchema,
        response: { 200: LicenseAnswerSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "licenses.manage" },
    },
    async (request) => ({ item: await uploadLicense(ctx, request.body.document) }),
  );
};
