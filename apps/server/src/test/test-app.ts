import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Kysely } from "kysely";
import { type AppDeps, buildApp } from "../app";
import { runFirstStart } from "../modules/setup/first-start";
import type { Bus } from "../platform/bus/bus";
import { createInProcessBus } from "../platform/bus/in-process-bus";
import { type Config, loadConfig } from "../platform/config";
import type { AppContext } from "../platform/context";
import type { DB } from "../platform/db/schema";
import type { Dispatcher } from "../platform/jobs/dispatcher";
import type { FileStorage } from "../platform/storage/file-storage";
import { createLocalFileStorage } from "../platform/storage/local-storage";
import { createTestClock, type TestClock } from "./test-clock";
import { createTestDatabase } from "./test-db";

/** An app on a database of its own, with a clock the test controls. */
export interface TestApp {
  app: FastifyInstance;
  db: Kysely<DB>;
  bus: Bus;
  clock: TestClock;
  config: Config;
  /** The app's job dispatcher: `runUntilIdle()` runs every due job now, without waiting for a poll. */
  jobs: Dispatcher;
  /** The app's file storage: a temporary folder of its own unless the test passed one. */
  storage: FileStorage;
  /** The context the app's services get, for tests that call a service the way another feature would. */
  ctx: AppContext;
  close(): Promise<void>;
}

export interface TestAppOptions
  extends Partial<
    Pick<
      AppDeps,
      | "webDistDir"
      | "realtimeTimings"
      | "extraApiRoutes"
      | "mqttStats"
      | "jobTimings"
      | "storage"
      | "transferHooks"
      | "deliveryTimings"
      | "tunnelMinuteMs"
      | "tunnelRouterSshPort"
      | "tunnelRouterWebPort"
      | "logger"
    >
  > {
  config?: Partial<Config>;
  /** Run the first-start seed (default policy, root, demo). Default true. */
  seed?: boolean;
  /**
   * Start the job dispatcher, so queued mails go out as in production (default true). A test that
   * steps through jobs itself passes false and calls `jobs.runUntilIdle()`.
   */
  runJobs?: boolean;
}

/**
 * Builds the app for app.inject() (or app.listen({ port: 0 }) for sockets). Each call gets a
 * fresh database (see createTestDatabase), so test files never see each other's rows.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = await createTestDatabase();
  const clock = createTestClock();
  // A high login limit, so the many sign-ins of a test file are not rate-limited by accident.
  const config: Config = { ...loadConfig({}), loginRateLimit: 10_000, ...options.config };
  if (options.seed ?? true) {
    await runFirstStart(database.db, {
      rootPassword: "root-password-for-tests",
      now: clock.now,
      log: { warn() {} },
    });
  }
  const bus = createInProcessBus();
  // Each app stores files in a folder of its own (removed on close), never in ./data.
  const filesDir = options.storage ? null : await mkdtemp(path.join(os.tmpdir(), "cellfleet-files-"));
  const storage = options.storage ?? createLocalFileStorage(filesDir as string);
  let ctx: AppContext | undefined;
  const app = await buildApp({
    config,
    database,
    bus,
    now: clock.now,
    webDistDir: options.webDistDir ?? "/nonexistent-cellfleet-web-dist",
    realtimeTimings: options.realtimeTimings,
    extraApiRoutes: [
      ...(options.extraApiRoutes ?? []),
      async (_api, { ctx: given }) => {
        ctx = given;
      },
    ],
    mqttStats: options.mqttStats,
    jobTimings: options.jobTimings,
    storage,
    transferHooks: options.transferHooks,
    deliveryTimings: options.deliveryTimings,
    tunnelMinuteMs: options.tunnelMinuteMs,
    tunnelRouterSshPort: options.tunnelRouterSshPort,
    tunnelRouterWebPort: options.tunnelRouterWebPort,
    logger: options.logger,
  });
  await app.ready();
  if (options.runJobs ?? true) app.jobDispatcher.start();
  return {
    app,
    db: database.db,
    bus,
    clock,
    config,
    jobs: app.jobDispatcher,
    storage,
    ctx: ctx as AppContext,
    close: async () => {
      await app.close();
      await bus.close();
      await drop();
      if (filesDir) await rm(filesDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    },
  };
}
