import type { FeatureModule } from "../../platform/feature-module";
import { mapRoutes } from "./map.routes";

/** The fleet map: routers by position, clustered by the server (ADR 045). */
export const mapModule: FeatureModule = { name: "map", routes: mapRoutes };
