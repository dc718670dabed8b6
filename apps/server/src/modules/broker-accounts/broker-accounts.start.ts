import { hostname } from "node:os";
import type { Config } from "../../platform/config";
import type { Jobs } from "../../platform/jobs/jobs";
import { connectDynsec, DynsecUnavailableError } from "../../platform/mqtt/dynsec";
import { redactUrl } from "../../platform/redact-url";
import { BROKER_ACCOUNTS_SYNC_ALL_JOB } from "./broker-accounts.jobs";
import { prepareServerAccount } from "./broker-accounts.service";

/** How many times the start's account check is tried, and how long apart. */
const START_ATTEMPTS = 5;
const START_RETRY_MS = 1_000;

/** Thrown at start when MQTT_DYNSEC cannot work with MQTT_URL, saying what to change. */
export class BrokerAccountsError extends Error {
  override name = "BrokerAccountsError";
}

/**
 * With MQTT_URL and MQTT_DYNSEC, before the server subscribes: checks that the dynamic-security
 * plugin answers MQTT_URL's account, gives that account the server's role (every report, commands,
 * notices), and queues one reconcile of every router's account (deduplicated across nodes).
 */
export async function prepareExternalBroker(
  config: Pick<Config, "mqttUrl" | "mqttDynsec">,
  deps: { jobs?: Jobs; log: { info(obj: object, msg: string): void } },
): Promise<void> {
  if (!config.mqttUrl || !config.mqttDynsec) return;
  const username = decodeURIComponent(new URL(config.mqttUrl).username);
  if (username === "") {
    throw new BrokerAccountsError(
      `MQTT_DYNSEC=1 needs MQTT_URL with the server's own user name and password (${redactUrl(config.mqttUrl)} has none)`,
    );
  }
  const mqttUrl = config.mqttUrl;
  // Nodes starting together share the server's account, and Mosquitto disconnects every client of
  // an account whose roles change: one node giving the account its role can cut another's check off
  // mid-way, its question asked and the answer gone with the connection. A connection lost so
  // (DynsecConnectionLostError) is tried again; a broker that refuses or never answers the plugin's
  // topic (DynsecUnavailableError) is not.
  for (let attempt = 1; ; attempt += 1) {
    try {
      const dynsec = await connectDynsec(mqttUrl, {
        clientId: `cellfleet-dynsec-start-${hostname()}-${process.pid}`,
      }).catch((error: unknown) => {
        if (error instanceof DynsecUnavailableError) throw error;
        throw new BrokerAccountsError(
          `MQTT_DYNSEC=1: cannot reach the dynamic-security plugin through ${redactUrl(mqttUrl)}: ${String(error)}`,
        );
      });
      try {
        await prepareServerAccount(dynsec, username);
      } finally {
        await dynsec.close();
      }
      break;
    } catch (error) {
      if (error instanceof DynsecUnavailableError || attempt >= START_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, START_RETRY_MS));
    }
  }
  const jobs = deps.jobs;
  if (jobs) {
    await jobs.transaction((trx) =>
      jobs.enqueue(trx, { kind: BROKER_ACCOUNTS_SYNC_ALL_JOB, dedupeKey: BROKER_ACCOUNTS_SYNC_ALL_JOB }),
    );
  }
  deps.log.info({ username }, "broker accounts: dynamic-security plugin ready");
}
