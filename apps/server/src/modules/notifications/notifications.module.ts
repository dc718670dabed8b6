import type { AppContext } from "../../platform/context";
import { registerFlushJob } from "./engine/flush";
import { createNotificationHooks, type NotificationHooks } from "./engine/hooks";
import { registerSendJob } from "./engine/send.job";
import { registerSubscribers } from "./engine/subscribers";
import { createNotificationTimers, type NotificationTimers } from "./engine/timers";

/** What the notifications module gives the app besides its routes. */
export interface NotificationsModule {
  /** Where later modules register their licence and firmware sources. */
  hooks: NotificationHooks;
  /** The timer monitors; main.ts starts them on nodes that run jobs. */
  timers: NotificationTimers;
}

/**
 * Registers the module's durable work at start: the send and flush jobs and the reactive
 * monitors' outbox subscribers; builds the timers (not started) and the hooks registry.
 */
export function setUpNotifications(ctx: AppContext, node: string): NotificationsModule {
  registerSendJob(ctx);
  registerFlushJob(ctx);
  registerSubscribers(ctx);
  const hooks = createNotificationHooks();
  return { hooks, timers: createNotificationTimers(ctx, hooks, node) };
}

declare module "fastify" {
  interface FastifyInstance {
    /** The notification timers of this node (main.ts starts them where JOBS_WORKER is on). */
    notificationTimers: NotificationTimers;
    /** Sources of the licence and firmware monitors (later modules register theirs). */
    notificationHooks: NotificationHooks;
  }
}
