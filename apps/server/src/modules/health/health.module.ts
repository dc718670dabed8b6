import type { FeatureModule } from "../../platform/feature-module";
import { healthRoutes } from "./health.routes";

/** `GET /api/health` for load balancers. */
export const healthModule: FeatureModule = { name: "health", routes: healthRoutes };
