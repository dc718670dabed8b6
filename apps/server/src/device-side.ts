import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Fleet } from "@cellfleet/simulator";
import type { Kysely } from "kysely";
import { prepareExternalBroker } from "./modules/broker-accounts/broker-accounts.start";
import "./modules/ingest/ingest.hooks";
import {
  type DeviceIngest,
  type DeviceIngestStats,
  startDeviceIngest,
} from "./modules/ingest/ingest.runtime";
import type { RefusalRecorder } from "./modules/ingest/refusal-recorder";
import { seedDemoFleet, startDemoFleet } from "./modules/setup/demo-fleet";
import type { Bus } from "./platform/bus/bus";
import type { Config } from "./platform/config";
import type { DB } from "./platform/db/schema";
import type { HookRegistry } from "./platform/hooks";
import type { Jobs } from "./platform/jobs/jobs";
import { MQTT_PORT_FILE } from "./platform/mqtt/remembered-port";
import { redactUrl } from "./platform/redact-url";

// The device side of a server process, wired at the root because it spans features: the broker's
// accounts (broker-accounts), the gateway and ingest (ingest, asking actions and zerotouch through
// their hooks) and the demo fleet (setup). The status sweep is a periodic job (devices-status).

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The device side of a server process: gateway + ingest and the demo fleet. */
export interface DeviceSide {
  ingest: DeviceIngest;
  stats(): DeviceIngestStats;
  /** Stops the fleet, then the gateway after writing what is queued. */
  close(): Promise<void>;
}

/** Starts everything devices need, as main.ts runs it; throws MqttPortInUseError when MQTT_PORT is taken. */
export async function startDeviceSide(
  config: Config,
  deps: {
    db: Kysely<DB>;
    bus: Bus;
    now: () => Date;
    log: Log;
    jobs: Jobs;
    /** The app's hooks: ingest asks the actions and zero-touch features through them. */
    hooks: HookRegistry;
    /** The app's refusal recorder, so the process keeps one. */
    refusals: RefusalRecorder;
  },
): Promise<DeviceSide> {
  await prepareExternalBroker(config, deps);
  const ingest = await startDeviceIngest({
    db: deps.db,
    bus: deps.bus,
    now: deps.now,
    log: deps.log,
    mqttUrl: config.mqttUrl,
    mqttPort: config.mqttPort,
    isMqttPortFlexible: config.isMqttPortDefault,
    mqttPortFile: join(config.dataDir, MQTT_PORT_FILE),
    sharedSubscription: config.mqttSharedSubscription,
    clientId: config.mqttClientId,
    tls: config.mqttTls && {
      port: config.mqttTls.port,
      cert: readFileSync(config.mqttTls.certFile),
      key: readFileSync(config.mqttTls.keyFile),
    },
    jobs: deps.jobs,
    refusals: deps.refusals,
    commandStatuses: deps.hooks.get("ingest.commandStatuses"),
    zeroTouch: deps.hooks.get("ingest.zeroTouch"),
  });
  deps.log.info(
    { mode: ingest.gateway.mode, url: redactUrl(ingest.gateway.url), tlsPort: ingest.gateway.tlsPort },
    "device gateway ready",
  );
  let fleet: Fleet | null = null;
  if (config.simulate > 0) {
    const added = await seedDemoFleet(deps.db, config.simulate);
    fleet = await startDemoFleet(ingest.gateway.url, config.simulate);
    deps.log.info(
      { devices: config.simulate, added },
      "demo fleet running in the demo domain (SIMULATE=0 turns it off)",
    );
  }
  return {
    ingest,
    stats: ingest.stats,
    async close() {
      await fleet?.stop();
      await ingest.close();
    },
  };
}
