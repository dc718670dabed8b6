import type { FeatureModule } from "../../platform/feature-module";
import { settingsRoutes } from "./settings.routes";

/** Domain settings and event types. */
export const settingsModule: FeatureModule = { name: "settings", routes: settingsRoutes };
