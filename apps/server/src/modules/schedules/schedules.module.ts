import type { FeatureModule } from "../../platform/feature-module";
import { registerScheduleJobs } from "./schedules.jobs";
import { schedulesRoutes } from "./schedules.routes";

/** Backup and journal rules, each occurrence a durable job. */
export const schedulesModule: FeatureModule = {
  name: "schedules",
  routes: schedulesRoutes,
  setUp: registerScheduleJobs,
};
