import type { FeatureModule } from "../../platform/feature-module";
import { deviceImportRoutes } from "./device-import.routes";

/** Routers from a spreadsheet with a dry run (issue 31, ADR 042); the rules are the devices feature's. */
export const deviceImportModule: FeatureModule = { name: "device-import", routes: deviceImportRoutes };
