import type { FeatureModule } from "../../platform/feature-module";
import { uptimeRoutes } from "./uptime.routes";
import { registerUptimeMailJobs } from "./uptime-mail.jobs";

/** Uptime (SLA) reports over a month, from the stored history, and their monthly mail (ADR 044). */
export const uptimeModule: FeatureModule = {
  name: "uptime",
  routes: uptimeRoutes,
  setUp: registerUptimeMailJobs,
};
