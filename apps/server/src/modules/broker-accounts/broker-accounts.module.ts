import type { FeatureModule } from "../../platform/feature-module";
import { registerBrokerAccountJobs } from "./broker-accounts.jobs";

/** Mosquitto's dynamic-security accounts of routers (MQTT_DYNSEC): the sync jobs and their connection. */
export const brokerAccountsModule: FeatureModule = {
  name: "broker-accounts",
  setUp: (ctx) => registerBrokerAccountJobs(ctx) ?? undefined,
};
