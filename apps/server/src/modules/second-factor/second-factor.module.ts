import type { FeatureModule } from "../../platform/feature-module";
import { secondFactorRoutes } from "./second-factor.routes";

/** The second factor: a person's TOTP app, passkeys and recovery codes, and an administrator's reset. */
export const secondFactorModule: FeatureModule = { name: "second-factor", routes: secondFactorRoutes };
