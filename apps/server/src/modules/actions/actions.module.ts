import type { FeatureModule } from "../../platform/feature-module";
import type { CommandStatusHook } from "../ingest/ingest.hooks";
import { setUpActions } from "./actions.jobs";
import { actionsRoutes } from "./actions.routes";
import type { DeliveryTimings } from "./delivery.service";

/** Commands: their delivery jobs, and the routers' statuses ingest hands over (hook "ingest.commandStatuses"). */
export function createActionsModule(timings: Partial<DeliveryTimings> = {}): FeatureModule {
  return {
    name: "actions",
    routes: actionsRoutes,
    setUp(ctx) {
      const commandStatuses: CommandStatusHook = setUpActions(ctx, timings).commandStatuses;
      ctx.hooks.fill("ingest.commandStatuses", commandStatuses);
    },
  };
}
