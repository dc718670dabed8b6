import type { FastifyBaseLogger } from "fastify";
import type { Kysely } from "kysely";
import type { Bus } from "./bus/bus";
import type { Config } from "./config";
import type { DatabaseKind } from "./db/database";
import type { DB } from "./db/schema";
import type { HookRegistry } from "./hooks";
import type { Jobs } from "./jobs/jobs";
import type { Mailer } from "./mail/mailer";
import type { DeviceLink } from "./mqtt/device-link";
import type { PlatformSecrets } from "./secrets";
import type { FileStorage } from "./storage/file-storage";
import type { TransferUrlSigner } from "./storage/signed-url";

/** What services need from the platform; built once by buildApp and handed to every route module. */
export interface AppContext {
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  bus: Bus;
  config: Config;
  /** The clock every rule reads (session expiry, inactivity, password dates); tests move it. */
  now: () => Date;
  log: FastifyBaseLogger;
  /** Outgoing mail (registration keys, password resets, new passwords). */
  mailer: Mailer;
  /** Keys derived from the server's own secret: signed file URLs, sealed job payloads. */
  secrets: PlatformSecrets;
  /** Durable jobs: enqueue in the same transaction as the change (`ctx.jobs.enqueue(trx, …)`), handlers by kind. */
  jobs: Jobs;
  /** File blobs: the local disk under DATA_DIR/files, or S3 (S3_URL). */
  storage: FileStorage;
  /** Signs and checks the short-lived URLs through which devices move files. */
  transferUrls: TransferUrlSigner;
  /** Publishes to routers through the gateway (commands); attached once the device side runs. */
  deviceLink: DeviceLink;
  /** What a module asks of one above it without importing it (platform/hooks.ts); filled at set-up. */
  hooks: HookRegistry;
}
