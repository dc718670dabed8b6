import type { FeatureModule } from "../../platform/feature-module";
import { uptimeRoutes } from "./uptime.routes";

/** Uptime (SLA) reports over a month, from the stored history (ADR 044). */
export const uptimeModule: FeatureModule = { name: "uptime", routes: uptimeRoutes };
