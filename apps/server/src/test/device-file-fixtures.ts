import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { CommandFile, DeviceFileType } from "@cellfleet/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Response as InjectResponse } from "light-my-request";
import {
  type DeviceDownloadRequest,
  prepareDeviceDownload,
  prepareDeviceUpload,
} from "../modules/files/device-transfers.service";
import { FILE_UPLOADED_EVENT, type FileUploadedEvent } from "../modules/files/files-queue";
import type { AppContext } from "../platform/context";
import { buildDevice } from "./device-factories";
import { buildDomain } from "./factories";
import { createTestApp, type TestApp } from "./test-app";
import { TRANSFER_TEST_STORAGES } from "./transfer-fixtures";

/** The storages device transfers are tested on: the local disk and S3 (s3rver). */
export const DEVICE_FILE_STORAGES = TRANSFER_TEST_STORAGES;

/** A test app with a domain, two routers and a subscriber that records every `file.uploaded`. */
export interface DeviceFilesFixture {
  t: TestApp;
  ctx: AppContext;
  domainId: string;
  device: { id: string; ident: string };
  otherDevice: { id: string; ident: string };
  /** Every `file.uploaded` event delivered so far (run the jobs first). */
  uploaded: FileUploadedEvent[];
  /** A PUT `file` for the router, as a command would carry it (in a transaction of its own). */
  prepareUpload(
    kind: DeviceFileType,
    options?: { deviceId?: string; maxBytes?: number; filename?: string },
  ): Promise<CommandFile>;
  /** A GET `file` for the router. */
  prepareDownload(
    request: Omit<DeviceDownloadRequest, "domainId" | "deviceId"> & { deviceId?: string },
  ): Promise<CommandFile>;
  /** The router sends `body` to a PUT `file`'s URL. */
  put(file: CommandFile, body: Buffer): Promise<InjectResponse>;
  /** Where the app listens on loopback, for clients that speak real HTTP (the simulator). */
  origin: string;
  /** prepareUpload and put in one: answers the transfer's id (the file's id unless it was a repeat). */
  upload(kind: DeviceFileType, body: Buffer): Promise<string>;
  close(): Promise<void>;
}

/** The path and query of a signed URL, for inject. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/** The transfer id (storage key) a signed URL names. */
export function keyOf(file: CommandFile): string {
  return new URL(file.url).pathname.split("/").at(-1) as string;
}

/** Opens a fixture on one of DEVICE_FILE_STORAGES. */
export async function openDeviceFilesFixture(
  backend: (typeof DEVICE_FILE_STORAGES)[number],
): Promise<DeviceFilesFixture> {
  const opened = await backend.open();
  const uploaded: FileUploadedEvent[] = [];
  const subscriber: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (_api, { ctx }) => {
    ctx.jobs.subscribe(FILE_UPLOADED_EVENT, "test-recorder", {
      handle: async ({ payload }) => {
        uploaded.push(payload);
      },
    });
  };
  const t = await createTestApp({
    seed: false,
    runJobs: false,
    storage: opened.storage,
    extraApiRoutes: [subscriber],
    config: { publicUrl: "https://console.example.com" },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = t.app.server.address() as AddressInfo;
  const domainId = (await buildDomain(t)).id;
  const device = await buildDevice(t, domainId, { ident: `RUT${randomUUID().slice(0, 8).toUpperCase()}` });
  const otherDevice = await buildDevice(t, domainId);
  const ctx = t.ctx;
  const fixture: DeviceFilesFixture = {
    t,
    ctx,
    domainId,
    device,
    otherDevice,
    uploaded,
    origin: `http://127.0.0.1:${port}`,
    prepareUpload: (kind, options = {}) =>
      ctx.jobs.transaction((trx) =>
        prepareDeviceUpload(ctx, trx, {
          domainId,
          deviceId: options.deviceId ?? device.id,
          kind,
          commandId: "cmd-test",
          executionId: `exec-${randomUUID()}`,
          maxBytes: options.maxBytes,
          filename: options.filename,
        }),
      ),
    prepareDownload: (request) =>
      ctx.jobs.transaction((trx) =>
        prepareDeviceDownload(ctx, trx, { ...request, domainId, deviceId: request.deviceId ?? device.id }),
      ),
    put: (file, body) =>
      t.app.inject({
        method: "PUT",
        url: pathOf(file.url),
        headers: { "content-type": "application/octet-stream" },
        payload: body,
      }),
    async upload(kind, body) {
      const file = await fixture.prepareUpload(kind);
      const response = await fixture.put(file, body);
      if (response.statusCode !== 200)
        throw new Error(`upload answered ${response.statusCode} ${response.body}`);
      return keyOf(file);
    },
    async close() {
      await t.close();
      await opened.close();
    },
  };
  return fixture;
}
