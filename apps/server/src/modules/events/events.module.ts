import type { FeatureModule } from "../../platform/feature-module";
import { eventsRoutes } from "./events.routes";

/** Events of the domain and of a router, and what each user read. */
export const eventsModule: FeatureModule = { name: "events", routes: eventsRoutes };
