import path from "node:path";
import { buildApp } from "./app";
import { type DeviceSide, startDeviceSide } from "./device-side";
import { runFirstStart } from "./modules/setup/first-start";
import { createBus } from "./platform/bus/create-bus";
import { ConfigError, loadConfig } from "./platform/config";
import { openDatabase } from "./platform/db/database";
import { migrateToLatest, readSchemaVersion } from "./platform/db/migrate";
import { createLogger } from "./platform/log";
import { AedesInternalsError } from "./platform/mqtt/aedes-internals";
import { MqttPortInUseError } from "./platform/mqtt/embedded-broker";
import { describeFileStorage } from "./platform/storage/create-file-storage";

/** How long shutdown may take before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Cellfleet cannot start. ${error.message}`);
    process.exit(1);
  }
  const log = createLogger(config.logLevel);

  const database = openDatabase(
    config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl, maxConnections: config.databasePoolSize }
      : { kind: "pglite", dataDir: path.join(config.dataDir, "db") },
  );
  const applied = await migrateToLatest(database.db);
  log.info(
    { database: database.kind, applied, schema_version: await readSchemaVersion(database.db) },
    "database ready",
  );
  await runFirstStart(database.db, { rootPassword: config.rootPassword, now: () => new Date(), log });

  log.info({ storage: describeFileStorage(config) }, "file storage");

  const bus = await createBus(config, log);
  let deviceSide: DeviceSide | undefined;
  const app = await buildApp({
    config,
    database,
    bus,
    logger: log,
    mqttStats: () => deviceSide?.stats() ?? null,
    gatewayPort: () =>
      deviceSide?.ingest.gateway.mode === "embedded" ? deviceSide.ingest.gateway.port : null,
  });
  try {
    // DEVICE_SIDE=0: a socket-serving node; routers' news arrive over the bus (ADR 036).
    if (config.deviceSide)
      deviceSide = await startDeviceSide(config, {
        db: database.db,
        bus,
        now: () => new Date(),
        log,
        jobs: app.jobs,
        hooks: app.hooks,
        refusals: app.refusals,
      });
    if (deviceSide) app.deviceLink.attach(deviceSide.ingest.gateway);
    else log.info("DEVICE_SIDE=0: this node runs no gateway or ingest; it serves HTTP and sockets");
  } catch (error) {
    if (!(error instanceof MqttPortInUseError || error instanceof AedesInternalsError)) throw error;
    log.fatal(error.message);
    process.exit(1);
  }

  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) return;
    isStopping = true;
    log.info({ signal }, "shutting down");
    const forceExit = setTimeout(() => {
      log.error("shutdown took too long; exiting");
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forceExit.unref();
    try {
      // Jobs first: no new claims, and the running handlers finish while everything they use is up.
      await app.jobDispatcher.stop();
      await app.close();
      await deviceSide?.close();
      await bus.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, "shutdown failed");
      process.exit(1);
    }
  };
  process.once("SIGINT", () => void stop("SIGINT"));
  process.once("SIGTERM", () => void stop("SIGTERM"));

  await app.listen({ port: config.port, host: config.host });
  if (config.jobsWorker) {
    app.jobDispatcher.start();
  } else log.info("JOBS_WORKER=0: this node queues jobs but runs none; other nodes run them");
}

main().catch((error: unknown) => {
  console.error("Cellfleet failed to start:", error);
  process.exit(1);
});
