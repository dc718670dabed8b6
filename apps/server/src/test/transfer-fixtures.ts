import { Readable } from "node:stream";
import { AppError } from "../platform/errors";
import { loadPlatformSecrets } from "../platform/secrets";
import { type FileStorage, newStorageKey } from "../platform/storage/file-storage";
import { createS3FileStorage } from "../platform/storage/s3-storage";
import {
  createTransferUrlSigner,
  type TransferGrant,
  type TransferUrlSigner,
} from "../platform/storage/signed-url";
import type { TransferHooks } from "../platform/storage/transfer.routes";
import { startS3TestServer } from "./s3-test-server";
import { createTestApp, type TestApp } from "./test-app";

/** The device the tests' URLs are signed for, and another one. */
export const DEVICE = "RUT955-000123";
export const OTHER_DEVICE = "RUT955-000999";

/** What the files feature would know, as the transfer tests set it up. */
export interface TransferTestState {
  /** Files that belong to another device than the one asking. */
  filesOfOtherDevices: Set<string>;
  /** What onUploaded saw. */
  uploaded: { grant: TransferGrant; size: number; sha256: string }[];
  /** Keys whose upload onUploaded refuses. */
  refusedUploads: Set<string>;
  /** Keys that may carry at most 1000 bytes. */
  smallUploads: Set<string>;
}

/** Hooks standing in for the files feature, driven by `state`. */
function transferTestHooks(state: TransferTestState): TransferHooks {
  return {
    async authorize(grant) {
      if (state.filesOfOtherDevices.has(grant.fileId))
        throw new AppError("ACCESS_DENIED", "Not this device's file");
    },
    async maxUploadBytes(grant) {
      return state.smallUploads.has(grant.fileId) ? 1000 : 50 * 1024 * 1024;
    },
    async onUploaded(grant, stored) {
      if (state.refusedUploads.has(grant.fileId)) {
        throw new AppError("COMMAND_FILE_NOT_FOUND", "No command awaits it");
      }
      state.uploaded.push({ grant, ...stored });
    },
  };
}

/** The storages the transfer tests run on: the test app's own temporary folder, and S3 (s3rver). */
export const TRANSFER_TEST_STORAGES = [
  { name: "local disk", open: async () => ({ storage: undefined, close: async () => {} }) },
  {
    name: "S3 (s3rver)",
    open: async () => {
      const server = await startS3TestServer();
      const storage = createS3FileStorage(server.config);
      return {
        storage: storage as FileStorage | undefined,
        close: async () => {
          await storage.close();
          await server.close();
        },
      };
    },
  },
];

/** A test app with transfer hooks, a signer over its database, and helpers for the tests. */
export interface TransferTestApp {
  test: TestApp;
  signer: TransferUrlSigner;
  state: TransferTestState;
  /** Stores `body` under a fresh key and returns the key. */
  storedFile(body: Buffer): Promise<string>;
  close(): Promise<void>;
}

/** Opens a test app on one of TRANSFER_TEST_STORAGES. */
export async function openTransferTestApp(
  backend: (typeof TRANSFER_TEST_STORAGES)[number],
): Promise<TransferTestApp> {
  const opened = await backend.open();
  const state: TransferTestState = {
    filesOfOtherDevices: new Set(),
    uploaded: [],
    refusedUploads: new Set(),
    smallUploads: new Set(),
  };
  const test = await createTestApp({
    seed: false,
    storage: opened.storage,
    transferHooks: transferTestHooks(state),
  });
  // A signer of its own over the same database signs what the app's does: every node agrees.
  const signer = createTransferUrlSigner(await loadPlatformSecrets(test.db), test.clock.now, 15 * 60_000);
  return {
    test,
    signer,
    state,
    async storedFile(body) {
      const key = newStorageKey();
      await test.storage.put(key, Readable.from([body]));
      return key;
    },
    async close() {
      await test.close();
      await opened.close();
    },
  };
}

/** The signed URL with one query field replaced (or removed with null). */
export function withQuery(url: string, name: string, value: string | null): string {
  const parsed = new URL(url, "http://localhost");
  if (value === null) parsed.searchParams.delete(name);
  else parsed.searchParams.set(name, value);
  return parsed.pathname + parsed.search;
}
