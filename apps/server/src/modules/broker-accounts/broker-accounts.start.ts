import { hostname } from "node:os";
import type { Config } from "../../platform/config";
import type { Jobs } from "../../platform/jobs/jobs";
import { connectDynsec } from "../../platform/mqtt/dynsec";
import { redactUrl } from "../../platform/redact-url";
import { BROKER_ACCOUNTS_SYNC_ALL_JOB } from "./broker-accounts.jobs";
import { prepareServerAccount } from "./broker-accounts.service";

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
  const dynsec = await connectDynsec(config.mqttUrl, {
    clientId: `cellfleet-dynsec-start-${hostname()}-${process.pid}`,
  }).catch((error: unknown) => {
    throw new BrokerAccountsError(
      `MQTT_DYNSEC=1: cannot reach the dynamic-security plugin through ${redactUrl(config.mqttUrl ?? "")}: ${String(error)}`,
    );
  });
  try {
    await prepareServerAccount(dynsec, username);
  } finally {
    await dynsec.close();
  }
  const jobs = deps.jobs;
  if (jobs) {
    await jobs.transaction((trx) =>
      jobs.enqueue(trx, { kind: BROKER_ACCOUNTS_SYNC_ALL_JOB, dedupeKey: BROKER_ACCOUNTS_SYNC_ALL_JOB }),
    );
  }
  deps.log.info({ username }, "broker accounts: dynamic-security plugin ready");
}
