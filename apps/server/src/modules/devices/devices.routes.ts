import {
  BulkCreateDevicesResultSchema,
  BulkCreateDevicesSchema,
  CreateDeviceSchema,
  DashboardTotalsSchema,
  DeleteDeviceResultSchema,
  DeviceDetailSchema,
  DeviceListRequestSchema,
  DeviceSchema,
  DevicesMultipleResultSchema,
  DevicesMultipleSchema,
  TagFrequencySchema,
  UpdateDeviceSchema,
} from "@cellfleet/contract";
import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { requireSession } from "../../platform/auth/session-guard";
import type { AppContext } from "../../platform/context";
import { AppError, toErrorBody } from "../../platform/errors";
import { registerCsvExport } from "../../platform/http/csv-export";
import { sendNdjson, sendNdjsonWhole } from "../../platform/http/ndjson";
import { ERROR_RESPONSES, TokenOnlyBodySchema } from "../../platform/http/schemas";
import {
  changeDevices,
  createDevice,
  createDevicesInBulk,
  deleteDevice,
  updateDevice,
} from "./devices.service";
import { codeForDeviceField } from "./devices-bulk";
import {
  DEVICE_CSV_COLUMNS,
  exportDevicesRows,
  listDevices,
  readDashboardTotals,
  readDeviceDetail,
  readTagFrequencies,
} from "./devices-list.service";

const DeviceParamsSchema = z.object({ dev_id: z.string().min(1).max(64) });

/**
 * Routes that take device fields validate with attachValidation, so a bad field answers the
 * spec's code for it (BAD_IDENT, TAGS_MUST_BE_ARRAY) rather than a generic BAD_REQUEST, and only
 * after the role check (403 before 400).
 */
function throwIfInvalid(request: FastifyRequest): void {
  const error = request.validationError as (Error & { validation?: { instancePath?: string }[] }) | undefined;
  if (!error) return;
  const field = error.validation?.[0]?.instancePath?.split("/")[1];
  const context = (error as { validationContext?: string }).validationContext;
  const body = toErrorBody(error);
  if (context === "params") throw new AppError("DEVICE_NOT_FOUND");
  throw new AppError(context === "body" ? codeForDeviceField(field) : body.code, body.message);
}

/** Devices: create, bulk create, edit, tags and delete in bulk, the list, export, tags, dashboard, one device. */
export const devicesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // attachValidation: see throwIfInvalid. The permission check runs before validation anyway.
  const fieldCodes = { attachValidation: true };

  app.post(
    "/devices/new",
    {
      schema: {
        tags: ["devices"],
        summary: "Create a device (admins)",
        body: CreateDeviceSchema,
        response: { 200: DeviceSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.create" },
      ...fieldCodes,
    },
    async (request) => {
      throwIfInvalid(request);
      return createDevice(ctx, requireSession(request), request.body);
    },
  );

  app.post(
    "/devices/bulk",
    {
      schema: {
        tags: ["devices"],
        summary: "Create many devices from pasted lines or CSV: ident[,description[,tag;tag[,key]]] (admins)",
        body: BulkCreateDevicesSchema,
        response: { 200: BulkCreateDevicesResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.create" },
      ...fieldCodes,
    },
    async (request) => {
      throwIfInvalid(request);
      return createDevicesInBulk(ctx, requireSession(request), request.body.text);
    },
  );

  app.post(
    "/devices/multiple",
    {
      schema: {
        tags: ["devices"],
        summary: "Add or remove tags of many devices (admins, assistants) or delete them (admins)",
        body: DevicesMultipleSchema,
        response: { 200: DevicesMultipleResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.edit" },
      ...fieldCodes,
    },
    async (request) => {
      throwIfInvalid(request);
      return changeDevices(ctx, requireSession(request), request.body);
    },
  );

  app.post(
    "/device/:dev_id/edit",
    {
      schema: {
        tags: ["devices"],
        summary: "Change a device's description, tags or AES key (admins, assistants)",
        params: DeviceParamsSchema,
        body: UpdateDeviceSchema,
        response: { 200: DeviceSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.edit" },
      ...fieldCodes,
    },
    async (request) => {
      throwIfInvalid(request);
      return updateDevice(ctx, requireSession(request), request.params.dev_id, request.body);
    },
  );

  app.delete(
    "/device/:dev_id",
    {
      schema: {
        tags: ["devices"],
        summary: "Delete a device (admins)",
        params: DeviceParamsSchema,
        response: { 200: DeleteDeviceResultSchema, ...ERROR_RESPONSES },
      },
      config: { saves: true, permission: "devices.delete" },
      ...fieldCodes,
    },
    async (request) => {
      throwIfInvalid(request);
      await deleteDevice(ctx, requireSession(request), request.params.dev_id);
      return { _id: request.params.dev_id };
    },
  );

  app.post(
    "/devices",
    {
      schema: {
        tags: ["devices"],
        summary:
          "The device list as NDJSON: a {total,page,size} line, one device a line, then {facets} when asked",
        body: DeviceListRequestSchema.nullish(),
        response: {
          200: z.unknown().describe("application/x-ndjson: see DeviceListLineSchema"),
          ...ERROR_RESPONSES,
        },
      },
      config: { permission: "devices.view" },
    },
    async (request, reply) => {
      const query = request.body ?? DeviceListRequestSchema.parse({});
      const batches = listDevices(ctx, requireSession(request), query);
      // Without facets the page is the whole answer: one write. Facets, slower to count, are streamed after it.
      return query.facets ? sendNdjson(request, reply, batches) : sendNdjsonWhole(reply, batches);
    },
  );

  registerCsvExport(app, "devices", {
    body: DeviceListRequestSchema,
    summary: "Every device matching the list's filters (page and size ignored)",
    columns: DEVICE_CSV_COLUMNS,
    rows: (session, query) => exportDevicesRows(ctx, session, query),
  });

  app.post(
    "/tags",
    {
      schema: {
        tags: ["devices"],
        summary: "Tags of the domain's devices with their frequency, most frequent first",
        body: TokenOnlyBodySchema,
        response: { 200: TagFrequencySchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => readTagFrequencies(ctx, requireSession(request)),
  );

  app.post(
    "/dashboard",
    {
      schema: {
        tags: ["devices"],
        summary: "Device totals by status",
        body: TokenOnlyBodySchema,
        response: { 200: DashboardTotalsSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => readDashboardTotals(ctx, requireSession(request)),
  );

  app.post(
    "/device/:dev_id",
    {
      schema: {
        tags: ["devices"],
        summary: "One device and its latest collected state per type",
        params: DeviceParamsSchema,
        body: TokenOnlyBodySchema,
        response: { 200: DeviceDetailSchema, ...ERROR_RESPONSES },
      },
      config: { permission: "devices.view" },
    },
    async (request) => readDeviceDetail(ctx, requireSession(request), request.params.dev_id),
  );
};
