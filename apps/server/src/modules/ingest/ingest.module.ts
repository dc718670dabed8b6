import type { FeatureModule } from "../../platform/feature-module";
import "./ingest.hooks";
import { type MqttStatsSource, mqttRoutes } from "./mqtt.routes";
import type { RefusalRecorder } from "./refusal-recorder";

/**
 * Ingest as the app holds it: the external broker's HTTP hooks and the gateway's figures. The
 * gateway and the pipeline run beside main.ts (device-side.ts), with the process's one refusal
 * recorder, which app.ts makes and hands to both.
 */
export function createIngestModule(deps: {
  refusals: RefusalRecorder;
  stats?: MqttStatsSource;
}): FeatureModule {
  return {
    name: "ingest",
    async routes(app, { ctx }) {
      await app.register(mqttRoutes, {
        ctx,
        refusals: deps.refusals,
        stats: deps.stats,
        zeroTouch: (...connect) => ctx.hooks.get("ingest.zeroTouch")(...connect),
      });
    },
  };
}
