import { describeConformance } from "./scenarios";
import { simulatorDriver } from "./simulator.driver";

// The simulator passes the same conformance scenarios as every other agent (issue 25).

describeConformance(simulatorDriver, { timeoutMs: 15_000 });
describeConformance(simulatorDriver, { timeoutMs: 15_000, broker: "mosquitto" });
