import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Fleet } from "@cellfleet/simulator";
import type { Kysely } from "kysely";
import type { Bus } from "../../platform/bus/bus";
import type { Config } from "../../platform/config";
import type { DB } from "../../platform/db/schema";
import type { Jobs } from "../../platform/jobs/jobs";
import { MQTT_PORT_FILE } from "../../platform/mqtt/remembered-port";
import { redactUrl } from "../../platform/redact-url";
import { type PeriodicJob, startPeriodicJob } from "../../platform/scheduler/lease";
import { prepareExternalBroker } from "../broker-accounts/broker-accounts.start";
import { runStatusSweep, STATUS_SWEEP_INTERVAL_MS } from "../devices-status/status-sweep.service";
import { seedDemoFleet, startDemoFleet } from "../setup/demo-fleet";
import type { ZeroTouchCheck } from "./device-auth";
import { type DeviceIngest, startDeviceIngest } from "./ingest.runtime";
import type { CommandStatusHook } from "./ingest.service";
import type { RefusalRecorder } from "./refusal-recorder";

interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** The device side of a server process: gateway + ingest, the status sweep and the demo fleet. */
export interface DeviceSide {
  ingest: DeviceIngest;
  stats(): Record<string, unknown>;
  /** Stops the fleet, the sweep, then the gateway after writing what is queued. */
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
    jobs?: Jobs;
    commandStatuses?: CommandStatusHook;
    /** The app's refusal recorder, so the process keeps one. */
    refusals?: RefusalRecorder;
    zeroTouch?: ZeroTouchCheck;
  },
): Promise<DeviceSide> {
  await prepareExternalBroker(config, deps);
  const ingest = await startDeviceIngest({
    ...deps,
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
    commandStatuses: deps.commandStatuses,
    zeroTouch: deps.zeroTouch,
  });
  deps.log.info(
    { mode: ingest.gateway.mode, url: redactUrl(ingest.gateway.url), tlsPort: ingest.gateway.tlsPort },
    "device gateway ready",
  );
  const sweep: PeriodicJob = startPeriodicJob({
    db: deps.db,
    name: "status-sweep",
    holder: `${hostname()}:${process.pid}`,
    intervalMs: STATUS_SWEEP_INTERVAL_MS,
    now: deps.now,
    log: deps.log,
    run: async () => {
      const changed = await runStatusSweep(deps);
      if (changed > 0) deps.log.info({ changed }, "device statuses changed");
    },
  });
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
      await sweep.stop();
      await ingest.close();
    },
  };
}
