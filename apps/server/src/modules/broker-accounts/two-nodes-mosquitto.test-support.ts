import { randomBytes } from "node:crypto";
import { freshDatabase, type Node, onCleanup, startNode } from "../../platform/bus/two-nodes.test-support";
import { type OwnMosquitto, startOwnMosquitto } from "./mosquitto-dynsec.test-support";

// Two server nodes as an installation of several runs them (issue 17): one fresh PostgreSQL
// database, the NATS bus, and one Mosquitto of the test's own with dynamic-security accounts and a
// shared subscription, so each report reaches one node. Both nodes run jobs. PostgreSQL only.

export interface TwoNodesOnMosquitto {
  broker: OwnMosquitto;
  databaseUrl: string;
  a: Node;
  b: Node;
}

/**
 * Starts the broker and both nodes (stopped by the test file's runCleanups); `env` adds settings to
 * both, or to each by its name ("a", "b").
 */
export async function startTwoNodesOnMosquitto(
  env: Record<string, string> | ((name: "a" | "b") => Record<string, string>) = {},
): Promise<TwoNodesOnMosquitto> {
  const broker = await startOwnMosquitto();
  onCleanup(() => broker.close());
  const databaseUrl = await freshDatabase();
  const start = (name: "a" | "b") =>
    startNode(name.toUpperCase(), databaseUrl, "nats://127.0.0.1:4222", {
      smtpUrl: "smtp://127.0.0.1:1",
      runsJobs: true,
      env: {
        MQTT_URL: broker.serverUrl,
        MQTT_SHARED_SUBSCRIPTION: "1",
        MQTT_DYNSEC: "1",
        MQTT_CLIENT_ID: `cellfleet-node-${name}-${randomBytes(3).toString("hex")}`,
        ...(typeof env === "function" ? env(name) : env),
      },
    });
  const [a, b] = await Promise.all([start("a"), start("b")]);
  return { broker, databaseUrl, a, b };
}
