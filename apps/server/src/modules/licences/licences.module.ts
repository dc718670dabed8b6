import type { FeatureModule } from "../../platform/feature-module";
import { registerLicenceJobs } from "./licences.jobs";
import { licencesRoutes } from "./licences.routes";
import { assertLicensedDeviceRoom } from "./licences.service";

/** Licences: their jobs, and the room for routers the devices feature asks about. */
export const licencesModule: FeatureModule = {
  name: "licences",
  routes: licencesRoutes,
  setUp(ctx) {
    registerLicenceJobs(ctx);
    ctx.hooks.fill("devices.deviceRoom", (trx, adding) => assertLicensedDeviceRoom(ctx, trx, adding));
  },
};
