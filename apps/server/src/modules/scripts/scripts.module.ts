import type { FeatureModule } from "../../platform/feature-module";
import { scriptsRoutes } from "./scripts.routes";

/** Saved scripts and settings templates with their versions. */
export const scriptsModule: FeatureModule = { name: "scripts", routes: scriptsRoutes };
