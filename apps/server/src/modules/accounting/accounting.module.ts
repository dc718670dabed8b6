import type { FeatureModule } from "../../platform/feature-module";
import { accountingRoutes } from "./accounting.routes";

/** Accounting and security: mounts domains, users, policies, registration and the audit log. */
export const accountingModule: FeatureModule = { name: "accounting", routes: accountingRoutes };
