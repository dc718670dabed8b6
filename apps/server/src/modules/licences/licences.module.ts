import type { FeatureModule } from "../../platform/feature-module";
import { licenceExpirySource, registerLicenceJobs } from "./licences.jobs";
import { licencesRoutes } from "./licences.routes";
import { assertLicensedDeviceRoom, findLicensedDeviceRoom } from "./licences.service";

/** Licences: their jobs, the room for routers the devices feature asks about, the expiry timer's source. */
export const licencesModule: FeatureModule = {
  name: "licences",
  routes: licencesRoutes,
  setUp(ctx) {
    registerLicenceJobs(ctx);
    ctx.hooks.fill("devices.deviceRoom", (trx, adding) => assertLicensedDeviceRoom(ctx, trx, adding));
    ctx.hooks.fill("devices.licensedRoom", (db) => findLicensedDeviceRoom(ctx, db));
    ctx.hooks.get("notifications.sources").registerLicenseSource(licenceExpirySource);
  },
};
