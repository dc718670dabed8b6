import { openWrtAgentDriver } from "./openwrt-agent.driver";
import { describeConformance } from "./scenarios";

// The OpenWrt agent passes the same conformance scenarios as the simulator (issue 25), on the
// console's embedded broker and behind Mosquitto with the dynamic-security plugin. A step's limit
// stays under the server's one-minute resend, so a command the agent missed fails the run.

describeConformance(openWrtAgentDriver(), { timeoutMs: 40_000 });
describeConformance(openWrtAgentDriver(), { timeoutMs: 40_000, broker: "mosquitto" });
