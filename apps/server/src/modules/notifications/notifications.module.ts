import type { AppContext } from "../../platform/context";
import { registerFlushJob } from "./engine/flush";
import { createNotificationHooks, type NotificationHooks } from "./engine/hooks";
import { registerSendJob } from "./engine/send.job";
import { registerSubscribers } from "./engine/subscribers";
import { registerNotificationTimerJobs } from "./engine/timers";

/** What the notifications module gives the app besides its routes. */
export interface NotificationsModule {
  /** Where later modules register their licence and firmware sources. */
  hooks: NotificationHooks;
}

/**
 * Registers the module's durable work at start: the send and flush jobs, the reactive monitors'
 * outbox subscribers and the timer monitors' periodic jobs; builds the hooks registry.
 */
export function setUpNotifications(ctx: AppContext): NotificationsModule {
  registerSendJob(ctx);
  registerFlushJob(ctx);
  registerSubscribers(ctx);
  const hooks = createNotificationHooks();
  registerNotificationTimerJobs(ctx, hooks);
  return { hooks };
}

declare module "fastify" {
  interface FastifyInstance {
    /** Sources of the licence and firmware monitors (later modules register theirs). */
    notificationHooks: NotificationHooks;
  }
}
