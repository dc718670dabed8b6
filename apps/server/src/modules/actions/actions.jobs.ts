import type { AppContext } from "../../platform/context";
import type { NoPayload } from "../../platform/jobs/jobs";
import { OUTBOX_EVENTS } from "../../platform/jobs/outbox-events";
import { DEFAULT_DELIVERY_TIMINGS, type DeliveryTimings, PUMP_JOB, pumpDevices } from "./delivery.service";
import { createRouterStatusHook, runWatchdog } from "./router-status.service";

/** The watchdog's periodic job. */
export const WATCHDOG_JOB = "actions.watchdog";

declare module "../../platform/jobs/jobs" {
  interface JobPayloads {
    "actions.watchdog": NoPayload;
  }
}

/**
 * Registers delivery: the pump job, the watchdog (periodic) and a router's hello re-sending its
 * head. Answers the ingest hook for routers' statuses.
 */
export function setUpActions(ctx: AppContext, timings: Partial<DeliveryTimings> = {}) {
  const settings = { ...DEFAULT_DELIVERY_TIMINGS, ...timings };
  ctx.jobs.register(PUMP_JOB, {
    maxAttempts: 10,
    backoff: { baseMs: 1000, maxMs: 30_000 },
    handle: (run) => pumpDevices(ctx, run.payload.deviceIds, run.payload.isReconnect === true, settings),
  });
  ctx.jobs.register(WATCHDOG_JOB, { handle: () => runWatchdog(ctx, settings) });
  ctx.jobs.every(WATCHDOG_JOB, settings.watchdogIntervalMs);
  // A router that connected gets the head of its queue (again): the broker keeps no session for it.
  ctx.jobs.subscribe(OUTBOX_EVENTS.deviceReported, "actions", {
    handle: async (run) => {
      if (run.payload.connected.length > 0) await pumpDevices(ctx, run.payload.connected, true, settings);
    },
  });
  return { commandStatuses: createRouterStatusHook(ctx), timings: settings };
}
