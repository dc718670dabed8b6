import { hostname } from "node:os";
import type { AppContext } from "../../platform/context";
import type { NoPayload } from "../../platform/jobs/jobs";
import { OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { connectDynsec, type DynsecClient } from "../../platform/mqtt/dynsec";
import { syncAllBrokerAccounts, syncBrokerAccounts } from "./broker-accounts.service";

/** Reconciles every router's broker account; enqueued at start with MQTT_DYNSEC. */
export const BROKER_ACCOUNTS_SYNC_ALL_JOB = "broker.accounts_sync_all";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "broker.accounts_sync_all": NoPayload;
  }
}

/**
 * With MQTT_URL and MQTT_DYNSEC, registers the jobs that keep Mosquitto's dynamic-security accounts
 * in step with the devices: each `device.credentials_changed` (a router created, deleted or given
 * another key) becomes a job that provisions exactly those routers, retried until the broker takes
 * it. Answers what closes the plugin connection, or null when the feature is off.
 */
export function registerBrokerAccountJobs(ctx: AppContext): { close(): Promise<void> } | null {
  const url = ctx.config.mqttUrl;
  if (!url || !ctx.config.mqttDynsec) return null;
  let client: Promise<DynsecClient> | null = null;
  const dynsec = (): Promise<DynsecClient> => {
    client ??= connectDynsec(url, { clientId: `cellfleet-dynsec-${hostname()}-${process.pid}` }).catch(
      (error: unknown) => {
        client = null;
        throw error;
      },
    );
    return client;
  };
  ctx.jobs.subscribe(OUTBOX_EVENTS.deviceCredentialsChanged, "broker-accounts", {
    // A broker that is down for a while must not make a router's account give up.
    maxAttempts: 30,
    backoff: { baseMs: 1000, maxMs: 5 * 60_000 },
    handle: async ({ payload }) => {
      await syncBrokerAccounts(ctx.db, await dynsec(), payload.idents);
    },
  });
  ctx.jobs.register(BROKER_ACCOUNTS_SYNC_ALL_JOB, {
    maxAttempts: 30,
    timeoutMs: 60 * 60_000,
    handle: async () => {
      const count = await syncAllBrokerAccounts(ctx.db, await dynsec());
      ctx.log.info({ count }, "broker accounts reconciled");
    },
  });
  return {
    async close() {
      const open = client ? await client.catch(() => null) : null;
      await open?.close();
    },
  };
}
