// The routers of bench/rollout.ts in a process of their own: the simulator's Fleet (mqtt.js routers
// that answer commands as docs/device-protocol.md says: `fw_update` downloads the file by its signed
// URL, checks its sha256, reports its status, reboots and says hello on the new version).
// Usage: rollout-fleet.ts <broker url> <prefix> <routers> <reboot ms> <command fail rate> <connect rate>.
// IPC: answers {type: "stats"} with the fleet's counters, memory and CPU; {type: "stop"} ends it.
import { Fleet, QUIET_BEHAVIOUR } from "../apps/simulator/src/index";

const [url = "", prefix = "RB", routers = "0", rebootMs = "5000", failRate = "0", connectRate = "500"] =
  process.argv.slice(2);
const fleet = new Fleet({
  url,
  prefix,
  devices: Number(routers),
  // One report an hour: the rollout's traffic is the measurement, not telemetry.
  intervalMs: 3_600_000,
  behaviour: QUIET_BEHAVIOUR,
  maxInflightTotal: 20_000,
  connectRate: Number(connectRate),
  rebootDowntimeMs: Number(rebootMs),
  commandFailRate: Number(failRate),
});
process.on("message", (message: { type: string }) => {
  if (message.type === "stats") {
    process.send?.({
      type: "stats",
      fleet: fleet.stats(),
      rss: process.memoryUsage().rss,
      cpu: process.cpuUsage(),
    });
  } else if (message.type === "stop") {
    void fleet.stop().then(() => process.exit(0));
  }
});
void fleet.start();
process.send?.({ type: "ready" });
