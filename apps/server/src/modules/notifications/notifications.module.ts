import type { FeatureModule } from "../../platform/feature-module";
import { registerFlushJob } from "./engine/flush";
import { createNotificationHooks } from "./engine/hooks";
import { registerSendJob } from "./engine/send.job";
import { registerSubscribers } from "./engine/subscribers";
import { registerNotificationTimerJobs } from "./engine/timers";
import { notificationsRoutes } from "./notifications.routes";

/**
 * Notifications. Its set-up registers the module's durable work: the send and flush jobs, the
 * reactive monitors' outbox subscribers and the timer monitors' periodic jobs; and the registry of
 * sources (hook "notifications.sources") that licences and firmware fill in theirs, after it.
 */
export const notificationsModule: FeatureModule = {
  name: "notifications",
  routes: notificationsRoutes,
  setUp(ctx) {
    registerSendJob(ctx);
    registerFlushJob(ctx);
    registerSubscribers(ctx);
    const sources = createNotificationHooks();
    registerNotificationTimerJobs(ctx, sources);
    ctx.hooks.fill("notifications.sources", sources);
  },
};
