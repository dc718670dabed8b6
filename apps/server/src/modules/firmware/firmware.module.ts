import type { FeatureModule } from "../../platform/feature-module";
import { registerFirmwareJobs } from "./firmware.jobs";
import { firmwareRoutes } from "./firmware.routes";
import { firmwareUpdateSource } from "./firmware-updates";
import { rolloutRoutes } from "./rollout.routes";
import { registerRolloutJobs } from "./rollout-driver";
import { rolloutOfferRoutes } from "./rollout-offers.routes";

/** Software rules and their rollouts, offered to domains; the 'firmware update available' timer reads the ready rules. */
export const firmwareModule: FeatureModule = {
  name: "firmware",
  async routes(app, options) {
    await app.register(firmwareRoutes, options);
    await app.register(rolloutRoutes, options);
    await app.register(rolloutOfferRoutes, options);
  },
  setUp(ctx) {
    registerFirmwareJobs(ctx);
    registerRolloutJobs(ctx);
    ctx.hooks.get("notifications.sources").registerFirmwareSource(firmwareUpdateSource);
  },
};
