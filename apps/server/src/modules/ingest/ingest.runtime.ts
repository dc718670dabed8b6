import { hostname } from "node:os";
import type { Kysely } from "kysely";
import type { Bus } from "../../platform/bus/bus";
import type { DB } from "../../platform/db/schema";
import type { Jobs } from "../../platform/jobs/jobs";
import { type Gateway, type GatewayOptions, startGateway } from "../../platform/mqtt/gateway";
import { createDeviceAuthenticator, isDeviceAccessAllowed, type ZeroTouchCheck } from "./device-auth";
import type { CommandStatusHook } from "./ingest.batch";
import {
  createIngestPipeline,
  type IngestOptions,
  type IngestPipeline,
  type IngestStats,
} from "./ingest.service";
import { createPresenceTracker, type PresenceTracker } from "./presence";
import { createRefusalRecorder, type RefusalRecorder } from "./refusal-recorder";

/** What the device side of the server is started with. */
export interface DeviceIngestOptions {
  db: Kysely<DB>;
  bus: Bus;
  now: () => Date;
  log: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
  mqttUrl: string | undefined;
  mqttPort: number;
  /** When mqttPort is taken, listen on a free port instead of failing (MQTT_PORT left at its default). */
  isMqttPortFlexible?: boolean;
  /** Where a flexible port is remembered across starts (DATA_DIR/mqtt-port). */
  mqttPortFile?: string;
  host?: string;
  clientId?: string;
  sharedSubscription?: boolean;
  shareGroup?: string;
  ingest?: Partial<IngestOptions>;
  /** The embedded broker also serves MQTT over TLS with this certificate and key. */
  tls?: GatewayOptions["tls"];
  /** The outbox: a batch with hellos or events emits `device.reported` in its transaction. */
  jobs?: Jobs;
  /** The actions feature's hook for routers' command statuses. */
  commandStatuses?: CommandStatusHook;
  /**
   * The process's one refusal recorder (the app's, which the external broker's auth hook uses too);
   * without it the runtime keeps one of its own and closes it with itself.
   */
  refusals?: RefusalRecorder;
  /** The zero-touch feature's path for `zt1:` user names (embedded broker only). */
  zeroTouch?: ZeroTouchCheck;
  /** How often routers' connection changes are written (default PRESENCE_FLUSH_MS). */
  presenceFlushMs?: number;
}

/** The device side's figures: GET /api/mqtt/stats answers them, GET /metrics reads them. */
export type DeviceIngestStats = ReturnType<Gateway["stats"]> & {
  ingest: IngestStats;
  refusalRecords: ReturnType<RefusalRecorder["stats"]>;
  presence: ReturnType<PresenceTracker["stats"]>;
};

/** The gateway and the ingest pipeline behind it, started and stopped together. */
export interface DeviceIngest {
  gateway: Gateway;
  ingest: IngestPipeline;
  /** Routers' connections now, written from the embedded broker (ADR 032). */
  presence: PresenceTracker;
  /** Figures for GET /api/mqtt/stats and GET /metrics. */
  stats(): DeviceIngestStats;
  /** Stops taking reports, then writes (and acknowledges) what is queued. */
  close(): Promise<void>;
}

/** Starts ingest and the gateway (embedded broker, or MQTT_URL) in front of it. */
export async function startDeviceIngest(options: DeviceIngestOptions): Promise<DeviceIngest> {
  const ingest = createIngestPipeline(
    {
      db: options.db,
      bus: options.bus,
      now: options.now,
      log: options.log,
      jobs: options.jobs,
      commandStatuses: options.commandStatuses,
    },
    options.ingest,
  );
  const ownRefusals = options.refusals
    ? null
    : createRefusalRecorder({ db: options.db, now: options.now, log: options.log });
  const refusals = options.refusals ?? (ownRefusals as RefusalRecorder);
  const presence = createPresenceTracker({
    db: options.db,
    bus: options.bus,
    now: options.now,
    log: options.log,
    flushMs: options.presenceFlushMs,
  });
  const gateway = await startGateway({
    mqttUrl: options.mqttUrl,
    mqttPort: options.mqttPort,
    isMqttPortFlexible: options.isMqttPortFlexible,
    portFile: options.mqttPortFile,
    host: options.host,
    clientId: options.clientId,
    sharedSubscription: options.sharedSubscription,
    shareGroup: options.shareGroup,
    authenticate: createDeviceAuthenticator(options.db, refusals, options.zeroTouch),
    isAllowed: isDeviceAccessAllowed,
    sink: ingest,
    log: options.log,
    tls: options.tls,
    onPresence: (ident, isConnected) => presence.note(ident, isConnected),
  }).catch(async (error: unknown) => {
    await presence.close();
    await ownRefusals?.close();
    await ingest.close();
    throw error;
  });
  // The node's name outlives a restart (the embedded broker's port is kept, DATA_DIR/mqtt-port), so
  // a restarted node closes the connections it held; connections noted meanwhile wait for it.
  if (gateway.mode === "embedded") await presence.start(`${hostname()}:${gateway.port}`);
  else await presence.forget();
  return {
    gateway,
    ingest,
    presence,
    stats: () => ({
      ...gateway.stats(),
      ingest: ingest.stats(),
      refusalRecords: refusals.stats(),
      presence: presence.stats(),
    }),
    async close() {
      // Ingest first: pending PUBACKs go out for everything committed before the broker closes.
      await ingest.close();
      await gateway.close();
      // The broker's close ended every connection: written as closed before the database goes.
      await presence.close();
      // A shared recorder is its owner's to close; what this gateway noted is written now.
      if (ownRefusals) await ownRefusals.close();
      else await refusals.flush();
    },
  };
}
