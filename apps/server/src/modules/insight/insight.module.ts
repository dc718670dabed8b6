import type { FeatureModule } from "../../platform/feature-module";
import { registerInsightJobs } from "./insight.jobs";
import { type GatewayPortSource, insightRoutes } from "./insight.routes";
import { installRoutes } from "./install.routes";

/** Device insight: history, SIM usage, connect info and the agent's one-line install; the hourly history job and the data-plan check. */
export function createInsightModule(gatewayPort?: GatewayPortSource): FeatureModule {
  return {
    name: "insight",
    async routes(app, { ctx }) {
      await app.register(insightRoutes, { ctx, gatewayPort });
      await app.register(installRoutes, { ctx, gatewayPort });
    },
    setUp: registerInsightJobs,
  };
}
