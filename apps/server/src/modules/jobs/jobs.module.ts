import type { FeatureModule } from "../../platform/feature-module";
import { jobsRoutes } from "./jobs.routes";

/** Failed and dead jobs, seen and retried by a person. */
export const jobsModule: FeatureModule = { name: "jobs", routes: jobsRoutes };
