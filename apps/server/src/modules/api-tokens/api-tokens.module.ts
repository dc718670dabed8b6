import type { FeatureModule } from "../../platform/feature-module";
import { apiTokensRoutes } from "./api-tokens.routes";

/** Personal API tokens (ADR 040); app.ts hands its resolver to the session guard. */
export const apiTokensModule: FeatureModule = { name: "api-tokens", routes: apiTokensRoutes };
