import type { FeatureModule } from "../../platform/feature-module";
import { devicesRoutes } from "./devices.routes";

/** Routers: create, edit, lists, exports; it asks licences for room through `devices.deviceRoom`. */
export const devicesModule: FeatureModule = { name: "devices", routes: devicesRoutes };
