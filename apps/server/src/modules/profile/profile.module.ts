import type { FeatureModule } from "../../platform/feature-module";
import { profileRoutes } from "./profile.routes";

/** The signed-in person's profile and password change. */
export const profileModule: FeatureModule = { name: "profile", routes: profileRoutes };
