import rateLimit from "@fastify/rate-limit";
import websocket from "@fastify/websocket";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import {
  type FastifyPluginAsyncZod,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from "fastify-type-provider-zod";
import type { Logger } from "pino";
import { accountingModule } from "./modules/accounting/accounting.module";
import { createActionsModule } from "./modules/actions/actions.module";
import type { DeliveryTimings } from "./modules/actions/delivery.service";
import { createLiveScopeReader } from "./modules/actions/live-scope.reader";
import { createApiTokenResolver } from "./modules/api-tokens/api-token-resolver";
import { apiTokensModule } from "./modules/api-tokens/api-tokens.module";
import { authModule } from "./modules/auth/auth.module";
import { announceAuthChange, createSessionResolver } from "./modules/auth/session.service";
import { brokerAccountsModule } from "./modules/broker-accounts/broker-accounts.module";
import { deviceImportModule } from "./modules/device-import/device-import.module";
import { installDeviceScopeGuard } from "./modules/devices/device-scope.guard";
import { devicesModule } from "./modules/devices/devices.module";
import { devicesStatusModule } from "./modules/devices-status/devices-status.module";
import { eventsModule } from "./modules/events/events.module";
import { createFileTransferHooks } from "./modules/files/device-uploads.service";
import { filesModule } from "./modules/files/files.module";
import { firmwareModule } from "./modules/firmware/firmware.module";
import { healthModule } from "./modules/health/health.module";
import { createIngestModule } from "./modules/ingest/ingest.module";
import type { MqttStatsSource } from "./modules/ingest/mqtt.routes";
import { createRefusalRecorder, type RefusalRecorder } from "./modules/ingest/refusal-recorder";
import { createInsightModule } from "./modules/insight/insight.module";
import type { GatewayPortSource } from "./modules/insight/insight.routes";
import { jobsModule } from "./modules/jobs/jobs.module";
import { licencesModule } from "./modules/licences/licences.module";
import { mapModule } from "./modules/map/map.module";
import { metricsRoutes } from "./modules/metrics/metrics.routes";
import { notificationsModule } from "./modules/notifications/notifications.module";
import { profileModule } from "./modules/profile/profile.module";
import { schedulesModule } from "./modules/schedules/schedules.module";
import { scriptsModule } from "./modules/scripts/scripts.module";
import { secondFactorModule } from "./modules/second-factor/second-factor.module";
import { settingsModule } from "./modules/settings/settings.module";
import { createTunnelsModule } from "./modules/tunnels/tunnels.module";
import { uptimeModule } from "./modules/uptime/uptime.module";
import { zeroTouchModule } from "./modules/zerotouch/zerotouch.module";
import { createAuditLog } from "./platform/audit/audit-log";
import { type ApiRouteEntry, recordApiRoutes } from "./platform/auth/permissions";
import { decorateSessionRequest, installSessionGuard } from "./platform/auth/session-guard";
import type { Bus } from "./platform/bus/bus";
import type { Config } from "./platform/config";
import type { AppContext } from "./platform/context";
import type { Database } from "./platform/db/database";
import { createUnitOfWorkDb, deferPublishesToCommit } from "./platform/db/unit-of-work";
import { AppError, installErrorHandling } from "./platform/errors";
import type { FeatureModule, ModuleRuntime } from "./platform/feature-module";
import { createHookRegistry, type HookRegistry } from "./platform/hooks";
import { installInputGuard } from "./platform/http/input-guard";
import { registerOpenApi } from "./platform/http/openapi";
import { registerSecurityHeaders } from "./platform/http/security-headers";
import { DEFAULT_WEB_DIST_DIR, registerStaticSpa } from "./platform/http/static-spa";
import { createDispatcher, type DispatcherTimings } from "./platform/jobs/dispatcher";
import { createJobs, type Jobs } from "./platform/jobs/jobs";
import { createNodeId } from "./platform/jobs/node-id";
import { createSilentLogger } from "./platform/log";
import { registerMailJobs } from "./platform/mail/mail.jobs";
import { createMailer } from "./platform/mail/mailer";
import { createMetrics, installHttpMetrics } from "./platform/metrics/metrics";
import { createDeviceLink, type DeviceLink } from "./platform/mqtt/device-link";
import type { LiveViews } from "./platform/realtime/live-views";
import {
  DEFAULT_REALTIME_TIMINGS,
  type RealtimeTimings,
  registerRealtimeSocket,
} from "./platform/realtime/socket.routes";
import { loadPlatformSecrets } from "./platform/secrets";
import { createFileStorage } from "./platform/storage/create-file-storage";
import type { FileStorage } from "./platform/storage/file-storage";
import { createTransferUrlSigner } from "./platform/storage/signed-url";
import { type TransferHooks, transferRoutes } from "./platform/storage/transfer.routes";

/** Bodies above 1 MiB are refused with 413 BAD_REQUEST. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Everything the app is built from; main.ts passes the real parts, tests pass their own. */
export interface AppDeps {
  config: Config;
  database: Database;
  bus: Bus;
  /** The clock; defaults to the system clock. */
  now?: () => Date;
  /** Defaults to a silent logger, so tests stay quiet. */
  logger?: Logger;
  /** The built web app; defaults to apps/web/dist. */
  webDistDir?: string;
  realtimeTimings?: Partial<RealtimeTimings>;
  /** More route plugins inside the guarded /api scope (tests register fixture routes here). */
  extraApiRoutes?: FastifyPluginAsyncZod<{ ctx: AppContext }>[];
  /** The device gateway's figures for GET /api/mqtt/stats (main.ts passes them once it runs). */
  mqttStats?: MqttStatsSource;
  /** The embedded broker's port as it listens, for what routers are told to connect to. */
  gatewayPort?: GatewayPortSource;
  /** The job dispatcher's timings (tests shorten them); it starts only when `app.jobDispatcher.start()` is called. */
  jobTimings?: Partial<DispatcherTimings>;
  /** File storage; defaults to the one the config names (the app then closes it). Tests pass their own. */
  storage?: FileStorage;
  /** Decisions on device file transfers beyond the signature (tests pass their own). */
  transferHooks?: TransferHooks;
  /** Command delivery's waits (tests shorten them). */
  deliveryTimings?: Partial<DeliveryTimings>;
  /** How long a "minute" of remote access's limits lasts, in ms (tests shorten it; ADR 038). */
  tunnelMinuteMs?: number;
  /** The router's sshd port a terminal session forwards to (22; the OpenWrt agent's test names a stand-in's). */
  tunnelRouterSshPort?: number;
  /** The router's web server port a web session forwards to (80; tests name a stand-in's). */
  tunnelRouterWebPort?: number;
}

declare module "fastify" {
  interface FastifyInstance {
    /** The durable jobs registry and enqueue API (main.ts hands it to the device side for its outbox). */
    jobs: Jobs;
    /** The process's one recorder of refused router connections (main.ts hands it to the device side). */
    refusals: RefusalRecorder;
    /** The way down to routers; main.ts (or a test) attaches the running gateway. */
    deviceLink: DeviceLink;
    /** The modules' hooks (platform/hooks.ts); main.ts hands them to the device side. */
    hooks: HookRegistry;
  }
}

/**
 * The features, as the app is made of them (ADR 029). Each sets up in this order (its jobs, the
 * hooks it fills; notifications before the licences and firmware that register its sources), then
 * each one's routes go into the guarded /api scope in the same order.
 */
function featureModules(deps: AppDeps, refusals: RefusalRecorder): FeatureModule[] {
  return [
    healthModule,
    authModule,
    profileModule,
    secondFactorModule,
    apiTokensModule,
    devicesModule,
    devicesStatusModule,
    eventsModule,
    accountingModule,
    createIngestModule({ refusals, stats: deps.mqttStats }),
    brokerAccountsModule,
    jobsModule,
    notificationsModule,
    filesModule,
    createActionsModule(deps.deliveryTimings),
    scriptsModule,
    firmwareModule,
    createInsightModule(deps.gatewayPort),
    uptimeModule,
    settingsModule,
    licencesModule,
    deviceImportModule,
    mapModule,
    schedulesModule,
    zeroTouchModule,
    createTunnelsModule(deps.tunnelMinuteMs, {
      ssh: deps.tunnelRouterSshPort ?? 22,
      web: deps.tunnelRouterWebPort ?? 80,
    }),
  ];
}

/** Builds the Fastify app, ready for inject() or listen(); it does not listen by itself. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    // Typed as Fastify's base logger so the instance fits plain FastifyInstance parameters.
    loggerInstance: (deps.logger ?? createSilentLogger()) as FastifyBaseLogger,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  // JSON routes take JSON only: a text/plain body (a `fetch` with a string) is refused 415 before
  // any hook sees it, so it is never audited whole as a string.
  app.removeContentTypeParser("text/plain");
  decorateSessionRequest(app);
  const metrics = createMetrics({ isProcessWatched: Boolean(deps.config.metricsToken) });
  installHttpMetrics(app, metrics);

  await registerSecurityHeaders(app, deps.config.mapStyleUrl);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError("USER_TEMPORARILY_BLOCKED", `Too many attempts; try again in ${context.after}`, {
        status: 429,
      }),
  });
  await registerOpenApi(app);
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });

  const now = deps.now ?? (() => new Date());
  // Every service's handle: inside a call that saves, its queries run in the call's unit of work
  // (platform/db/unit-of-work), and its bus messages go out only after the commit.
  const db = createUnitOfWorkDb(deps.database.db);
  const bus = deferPublishesToCommit(deps.bus);
  const secrets = await loadPlatformSecrets(db);
  const jobs = createJobs({ db, bus, secrets, now });
  const storage = deps.storage ?? createFileStorage(deps.config);
  const ctx: AppContext = {
    db,
    dbKind: deps.database.kind,
    bus,
    config: deps.config,
    now,
    log: app.log,
    mailer: createMailer(deps.config.smtp),
    secrets,
    jobs,
    storage,
    transferUrls: createTransferUrlSigner(secrets, now, deps.config.fileUrlTtlMinutes * 60_000),
    deviceLink: createDeviceLink(),
    hooks: createHookRegistry(),
  };
  registerMailJobs(jobs, ctx.mailer);
  const refusals = createRefusalRecorder({ db: ctx.db, now, log: app.log });
  const modules = featureModules(deps, refusals);
  const runtimes: ModuleRuntime[] = [];
  for (const feature of modules) {
    const runtime = feature.setUp?.(ctx);
    if (runtime) runtimes.push(runtime);
  }
  app.decorate("jobs", jobs);
  app.decorate("refusals", refusals);
  app.decorate("deviceLink", ctx.deviceLink);
  app.decorate("hooks", ctx.hooks);
  const node = createNodeId();
  const jobDispatcher = createDispatcher({
    db: ctx.db,
    bus: ctx.bus,
    jobs,
    secrets,
    node,
    now,
    log: app.log,
    timings: deps.jobTimings,
  });
  app.decorate("jobDispatcher", jobDispatcher);
  // Audit entries are written after the answer; closing drains running jobs, waits for the
  // entries, then closes the mail transport the jobs used.
  const auditLog = createAuditLog(ctx, deps.database.db);
  app.decorate("auditLog", auditLog);
  app.addHook("onClose", async () => {
    await jobDispatcher.stop();
    await auditLog.settle();
    await refusals.close();
    ctx.mailer.close();
    for (const runtime of runtimes.reverse()) await runtime.close();
    if (!deps.storage) await storage.close();
  });
  const resolveSession = createSessionResolver(ctx);
  const apiRoutes: ApiRouteEntry[] = [];
  let liveViews: LiveViews | null = null;
  app.decorate("apiRoutes", apiRoutes);

  await app.register(
    async (api) => {
      recordApiRoutes(api, apiRoutes);
      installSessionGuard(api, {
        resolveSession,
        resolveApiToken: createApiTokenResolver(ctx),
        afterWrite: () => announceAuthChange(ctx),
        assertRecentSignIn: (session) => ctx.hooks.get("auth.recentSignIn")(session),
      });
      installInputGuard(api);
      // The tag rule for requests naming routers (ADR 041); lists apply it in their SQL.
      installDeviceScopeGuard(api, ctx);
      auditLog.install(api);
      for (const feature of modules) if (feature.routes) await api.register(feature.routes, { ctx });
      // Production's hooks are the files feature's: a URL reaches only what was granted to its router.
      await api.register(transferRoutes, { ctx, hooks: deps.transferHooks ?? createFileTransferHooks(ctx) });
      liveViews = await registerRealtimeSocket(api, {
        resolveSession,
        bus: deps.bus,
        timings: { ...DEFAULT_REALTIME_TIMINGS, ...deps.realtimeTimings },
        scopeReader: createLiveScopeReader(ctx),
      });
      for (const plugin of deps.extraApiRoutes ?? []) await api.register(plugin, { ctx });
    },
    { prefix: "/api" },
  );

  await app.register(metricsRoutes, {
    ctx,
    metrics,
    deviceStats: deps.mqttStats,
    socketStats: () => liveViews,
  });
  await registerStaticSpa(app, deps.webDistDir ?? DEFAULT_WEB_DIST_DIR);
  return app;
}
