import type { AppContext } from "../../../platform/context";
import { OUTBOX_EVENTS } from "../../../platform/jobs/outbox-events";
import { rulesRepo } from "../rules.repo";
import { applyFindings } from "./apply";
import {
  actionFindings,
  connectedFindings,
  eventFindings,
  passwordFindings,
  type RuleFindings,
  statusFindings,
} from "./findings";
import { subjectsRepo } from "./subjects.repo";

/** The subscriber name of the notification monitors on every outbox event. */
export const NOTIFICATIONS_SUBSCRIBER = "notifications";

/** Retries of a monitor's reading of an event: it only reads and writes our own tables. */
const SUBSCRIBER_OPTIONS = { maxAttempts: 10, backoff: { baseMs: 1000, maxMs: 5 * 60_000 } };

/** Reads what the rules need, works out their findings and writes them, in one transaction. */
async function react(
  ctx: AppContext,
  find: (
    reader: ReturnType<typeof subjectsRepo>,
    rules: ReturnType<typeof rulesRepo>,
  ) => Promise<RuleFindings[]>,
): Promise<void> {
  await ctx.jobs.transaction(async (trx) => {
    const findings = await find(subjectsRepo(trx), rulesRepo(trx));
    await applyFindings(ctx, trx, findings);
  });
}

/**
 * The reactive monitors, each an outbox subscriber (ADR 007): ingest's hellos and events, the
 * sweep's status changes, people's actions on devices, expired and reset passwords. Each event is
 * one job, retried on its own; rules are read when it runs.
 */
export function registerSubscribers(ctx: AppContext): void {
  ctx.jobs.subscribe(OUTBOX_EVENTS.deviceReported, NOTIFICATIONS_SUBSCRIBER, {
    ...SUBSCRIBER_OPTIONS,
    handle: ({ payload }) =>
      react(ctx, async (subjects, rules) => {
        const [devices, events] = await Promise.all([
          subjects.findDevicesByIdsAcrossDomains(payload.connected ?? []),
          subjects.findEventsByIdsAcrossDomains(payload.events ?? []),
        ]);
        const domains = [...new Set([...devices, ...events].map((row) => row.domain_id))];
        const live = await rules.findLiveRulesAcrossDomains(["device_connected", "device_event"], domains);
        return live.map((rule) =>
          rule.monitor === "device_connected"
            ? connectedFindings(rule, devices)
            : eventFindings(rule, events),
        );
      }),
  });

  ctx.jobs.subscribe(OUTBOX_EVENTS.deviceStatusChanged, NOTIFICATIONS_SUBSCRIBER, {
    ...SUBSCRIBER_OPTIONS,
    handle: ({ payload }) =>
      react(ctx, async (subjects, rules) => {
        const devices = await subjects.findDevicesByIdsAcrossDomains(payload.changes.map((c) => c.device_id));
        const byId = new Map(devices.map((device) => [device.id, device]));
        const changes = payload.changes.flatMap((change) => {
          const device = byId.get(change.device_id);
          return device ? [{ device, from: change.from, to: change.to }] : [];
        });
        const domains = [...new Set(devices.map((device) => device.domain_id))];
        const live = await rules.findLiveRulesAcrossDomains(["device_status"], domains);
        return live.map((rule) => statusFindings(rule, changes));
      }),
  });

  ctx.jobs.subscribe(OUTBOX_EVENTS.deviceUserAction, NOTIFICATIONS_SUBSCRIBER, {
    ...SUBSCRIBER_OPTIONS,
    handle: ({ payload }) =>
      react(ctx, async (_subjects, rules) => {
        const live = await rules.findLiveRulesAcrossDomains(["user_action"], [payload.domain_id]);
        return live.map((rule) => actionFindings(rule, payload));
      }),
  });

  for (const [event, monitor] of [
    [OUTBOX_EVENTS.userPasswordExpired, "password_expired"],
    [OUTBOX_EVENTS.userPasswordReset, "password_reset"],
  ] as const) {
    ctx.jobs.subscribe(event, NOTIFICATIONS_SUBSCRIBER, {
      ...SUBSCRIBER_OPTIONS,
      handle: ({ payload }) =>
        react(ctx, async (subjects, rules) => {
          const user = await subjects.findUserAcrossDomains(payload.user_id);
          if (!user) return [];
          const live = await rules.findLiveRulesAcrossDomains([monitor], [user.domain_id]);
          return live.map((rule) => passwordFindings(rule, user));
        }),
    });
  }
}
