import type { FeatureModule } from "../../platform/feature-module";
import { registerStatusSweepJob } from "./status-sweep.jobs";

/** The status sweep: a periodic durable job, also queued when a domain's thresholds change. */
export const devicesStatusModule: FeatureModule = { name: "devices-status", setUp: registerStatusSweepJob };
