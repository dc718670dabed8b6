import {
  composeDigestMessage,
  computeDeviceStatus,
  DEFAULT_DOMAIN_SETTINGS,
  type MessageLine,
  type NewsItem,
} from "@cellfleet/contract";
import type { AppContext } from "../../../platform/context";
import type { NotificationRuleRow } from "../../../platform/db/schema";
import type { NoPayload } from "../../../platform/jobs/jobs";
import { deliveriesRepo } from "../deliveries.repo";
import { newsRepo } from "../news.repo";
import { MAX_LINES_BY_TYPE, MAX_TEXT_BY_TYPE } from "../providers/send";
import { rulesRepo } from "../rules.repo";
import { transportLocale } from "../transports.mapper";
import { transportsRepo } from "../transports.repo";
import { applyFindings } from "./apply";
import { isProblemStatus, matchesTags, type RuleFindings, variablesOf } from "./findings";
import type { NotificationHooks } from "./hooks";
import type { IncidentSignal } from "./incidents.repo";
import { incidentsRepo } from "./incidents.repo";
import { publishNews, queueMessage } from "./queue-message";
import { subjectsRepo } from "./subjects.repo";

/** The timer monitors look this often (check_delay counts in minutes at the finest). */
export const NOTIFY_TIMERS_INTERVAL_MS = 60_000;
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
/** Closed incidents, sent and failed deliveries and in-app items are kept this long. */
const KEEP_INCIDENTS_MS = 7 * 24 * HOUR_MS;
const KEEP_LOG_MS = 30 * 24 * HOUR_MS;

/** The periodic job of the timer monitors (`jobs.every`, so with N nodes each run happens once). */
export const NOTIFY_TIMERS_JOB = "notifications.timers";
/** The hourly job that deletes what is kept no longer. */
export const NOTIFY_CLEANUP_JOB = "notifications.cleanup";

declare module "../../../platform/jobs/jobs" {
  interface JobPayloads {
    "notifications.timers": NoPayload;
    "notifications.cleanup": NoPayload;
  }
}

/** `connect`: routers silent longer than check_delay minutes are a problem until they report again. */
async function runConnect(ctx: AppContext, rule: NotificationRuleRow, now: Date): Promise<RuleFindings> {
  if (rule.domain_id === null) return { rule };
  const subjects = subjectsRepo(ctx.db);
  const limitMs = Number(rule.check_delay ?? 0) * MINUTE_MS;
  const before = new Date(now.getTime() - limitMs);
  const silent = (await subjects.findSilentDevices(rule.domain_id, before)).filter((device) =>
    matchesTags(rule, device.tags),
  );
  const silentIds = new Set(silent.map((device) => device.id));
  const problems: IncidentSignal[] = silent.map((device) => ({
    subjectKey: `device:${device.id}`,
    line: { key: "connectLost", params: { device: device.ident, minutes: Number(rule.check_delay) } },
  }));
  // Those with a live incident that are no longer silent reported again (or were deleted).
  const live = (await incidentsRepo(ctx.db).findLiveSubjectKeys(rule.domain_id, rule.id))
    .map((key) => key.replace(/^device:/, ""))
    .filter((id) => !silentIds.has(id));
  const recoveries: IncidentSignal[] = (await subjects.findDevicesByIds(rule.domain_id, live)).map(
    (device) => ({
      subjectKey: `device:${device.id}`,
      line: { key: "connectResolved", params: { device: device.ident } },
    }),
  );
  return { rule, problems, recoveries };
}

/** `notify_in_advance`: passwords (and, through the hook, licences) expiring within check_delay hours. */
async function runAdvance(
  ctx: AppContext,
  hooks: NotificationHooks,
  rule: NotificationRuleRow,
  now: Date,
): Promise<RuleFindings> {
  const until = new Date(now.getTime() + Number(rule.check_delay ?? 0) * HOUR_MS);
  const seen: IncidentSignal[] = [];
  if (variablesOf(rule).subject === "license") {
    for (const source of hooks.licenseSources()) {
      for (const item of await source.findExpiring(ctx.db, rule.domain_id, now, until)) {
        seen.push({
          subjectKey: `license:${item.id}:${item.expiresAt.getTime()}`,
          line: { key: "licenseExpires", params: { license: item.label, dateMs: item.expiresAt.getTime() } },
          closeAt: item.expiresAt,
        });
      }
    }
  } else {
    for (const user of await subjectsRepo(ctx.db).findPasswordsExpiring(rule.domain_id, now, until)) {
      const expires = user.password_expire_date as Date;
      seen.push({
        subjectKey: `password:${user.id}:${expires.getTime()}`,
        line: { key: "passwordExpires", params: { user: user.username, dateMs: expires.getTime() } },
        // Open until the expiry: found again each minute, it is announced once.
        closeAt: expires,
      });
    }
  }
  return { rule, seen };
}

/** `firmware_update`: each check, devices a newer firmware fits (through the hook's sources). */
async function runFirmware(
  ctx: AppContext,
  hooks: NotificationHooks,
  rule: NotificationRuleRow,
  now: Date,
): Promise<RuleFindings> {
  if (rule.domain_id === null) return { rule };
  const seen: IncidentSignal[] = [];
  // A reminder per check while the update is still there: the incident closes just before the next look.
  const closeAt = new Date(
    now.getTime() + Math.max(Number(rule.check_delay ?? 1) * HOUR_MS - MINUTE_MS, MINUTE_MS),
  );
  for (const source of hooks.firmwareSources()) {
    for (const item of await source.findUpdates(ctx.db, rule.domain_id)) {
      if (!matchesTags(rule, item.tags)) continue;
      seen.push({
        subjectKey: `firmware:${item.deviceId}:${item.version}`,
        line: { key: "firmwareUpdate", params: { device: item.ident, version: item.version } },
        closeAt,
      });
    }
  }
  return { rule, seen };
}

/** `check_interval`: every check_delay hours, one message listing the devices at the status or worse. */
async function runDigest(ctx: AppContext, rule: NotificationRuleRow, now: Date): Promise<NewsItem[]> {
  if (rule.domain_id === null || rule.transport_id === null) return [];
  const { devices, settings } = await subjectsRepo(ctx.db).findDevicesWithSettings(rule.domain_id);
  const threshold = variablesOf(rule).status ?? "critical";
  const thresholds = (settings ?? DEFAULT_DOMAIN_SETTINGS).status;
  const lines: MessageLine[] = [];
  const routers: string[] = [];
  for (const device of devices) {
    if (!matchesTags(rule, device.tags)) continue;
    const status = computeDeviceStatus(device.last_contact?.getTime() ?? null, now.getTime(), thresholds);
    if (!isProblemStatus(threshold, status)) continue;
    routers.push(device.id);
    lines.push({
      key: "digestLine",
      params: { device: device.ident, status, dateMs: device.last_contact?.getTime() ?? 0 },
    });
  }
  if (lines.length === 0) return [];
  const domainId = rule.domain_id;
  const transport = await transportsRepo(ctx.db).findTransport(domainId, rule.transport_id);
  if (!transport) return [];
  const message = composeDigestMessage({
    locale: transportLocale(transport),
    prefix: transport.prefix,
    ruleName: rule.name,
    status: threshold,
    lines,
    maxLines: MAX_LINES_BY_TYPE[transport.type],
    maxChars: MAX_TEXT_BY_TYPE[transport.type],
  });
  const item = await ctx.jobs.transaction((trx) =>
    queueMessage(ctx, trx, {
      domainId,
      ruleId: rule.id,
      ruleName: rule.name,
      transport,
      kind: "digest",
      title: message.title,
      text: message.text,
      level: "warning",
      deviceIds: routers,
    }),
  );
  return [item];
}

async function applyEach(ctx: AppContext, findings: RuleFindings[]): Promise<void> {
  for (const finding of findings) {
    await ctx.jobs.transaction((trx) => applyFindings(ctx, trx, [finding]));
  }
}

/** One run of every timer monitor; each rule's findings commit on their own. */
export async function runNotificationTimers(ctx: AppContext, hooks: NotificationHooks): Promise<void> {
  const now = ctx.now();
  const rules = rulesRepo(ctx.db);
  for (const rule of await rules.findLiveRulesOfMonitorAcrossDomains("connect")) {
    await applyEach(ctx, [await runConnect(ctx, rule, now)]);
  }
  for (const rule of await rules.findLiveRulesOfMonitorAcrossDomains("notify_in_advance")) {
    await applyEach(ctx, [await runAdvance(ctx, hooks, rule, now)]);
  }
  for (const rule of await rules.claimDueTimerRulesAcrossDomains("firmware_update", now, HOUR_MS)) {
    await applyEach(ctx, [await runFirmware(ctx, hooks, rule, now)]);
  }
  for (const rule of await rules.claimDueTimerRulesAcrossDomains("check_interval", now, HOUR_MS)) {
    await publishNews(ctx, rule.domain_id, await runDigest(ctx, rule, now));
  }
}

/** Deletes what is kept no longer: closed incidents, old sent and failed deliveries, old in-app items. */
export async function cleanUpNotifications(ctx: AppContext): Promise<void> {
  const now = ctx.now().getTime();
  await incidentsRepo(ctx.db).deleteClosedIncidentsAcrossDomains(new Date(now - KEEP_INCIDENTS_MS));
  await deliveriesRepo(ctx.db).deleteOldDeliveriesAcrossDomains(new Date(now - KEEP_LOG_MS));
  await newsRepo(ctx.db).deleteOldNewsAcrossDomains(new Date(now - KEEP_LOG_MS));
}

/**
 * Registers the timer monitors and the cleanup as periodic durable jobs (ADR 007): worker nodes'
 * dispatchers enqueue each when due, once across nodes. A failed run is tried once more; the next
 * interval's run starts afresh either way.
 */
export function registerNotificationTimerJobs(ctx: AppContext, hooks: NotificationHooks): void {
  ctx.jobs.register(NOTIFY_TIMERS_JOB, {
    maxAttempts: 2,
    timeoutMs: 5 * 60_000,
    handle: () => runNotificationTimers(ctx, hooks),
  });
  ctx.jobs.every(NOTIFY_TIMERS_JOB, NOTIFY_TIMERS_INTERVAL_MS);
  ctx.jobs.register(NOTIFY_CLEANUP_JOB, {
    maxAttempts: 2,
    timeoutMs: 5 * 60_000,
    handle: () => cleanUpNotifications(ctx),
  });
  ctx.jobs.every(NOTIFY_CLEANUP_JOB, HOUR_MS);
}
