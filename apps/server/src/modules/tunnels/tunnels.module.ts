import type { FeatureModule } from "../../platform/feature-module";
import { registerRecordingsJobs } from "./recordings.jobs";
import { createTunnelsRoutes } from "./tunnels.routes";
import { createTunnelRuntime, type RouterPorts, type TunnelRuntime } from "./tunnels.runtime";

/** Remote access (issue 29, ADR 038): the sessions' routes, this node's SSH endpoint and open sessions, the recordings' retention. */
export function createTunnelsModule(
  minuteMs = 60_000,
  routerPorts: RouterPorts = { ssh: 22, web: 80 },
): FeatureModule {
  let runtime: TunnelRuntime | null = null;
  const current = () => {
    if (runtime === null) throw new Error("remote access is not set up");
    return runtime;
  };
  return {
    name: "tunnels",
    routes: createTunnelsRoutes(current),
    setUp(ctx) {
      registerRecordingsJobs(ctx);
      runtime = createTunnelRuntime(ctx, minuteMs, routerPorts);
      return { close: () => (runtime as TunnelRuntime).close() };
    },
  };
}
