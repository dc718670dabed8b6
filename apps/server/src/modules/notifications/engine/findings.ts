import { type MonitorName, monitorVariablesWithDefaults } from "@cellfleet/contract";
import type { NotificationRuleRow } from "../../../platform/db/schema";
import type { IncidentSignal } from "./incidents.repo";
import type { MonitoredDevice, MonitoredEvent, MonitoredUser } from "./subjects.repo";

// The pure part of the monitors: which subjects a rule's filters and variables let through, and the
// incident (its key and its message line) each finding becomes.

/** What a rule found: problems and their ends (state monitors), and occurrences. */
export interface RuleFindings {
  rule: NotificationRuleRow;
  problems?: IncidentSignal[];
  recoveries?: IncidentSignal[];
  occurrences?: IncidentSignal[];
  /** Occurrences found again by a timer: kept open, not counted as repeats. */
  seen?: IncidentSignal[];
}

/** A rule's variables with defaults. */
export function variablesOf(rule: NotificationRuleRow): Record<string, string> {
  return monitorVariablesWithDefaults(rule.monitor as MonitorName, rule.variables);
}

/** A device passes the rule's tag filter when it has one of its tags (no tags: every device). */
export function matchesTags(
  rule: Pick<NotificationRuleRow, "filter_tags">,
  tags: readonly string[],
): boolean {
  const wanted = rule.filter_tags ?? [];
  return wanted.length === 0 || wanted.some((tag) => tags.includes(tag));
}

const SEVERITY: Record<string, number> = { online: 0, pending: 0, warning: 1, critical: 2 };

/** Whether a status is the rule's problem: `critical`, or `warning` and worse. */
export function isProblemStatus(threshold: string, status: string): boolean {
  return (SEVERITY[status] ?? 0) >= (SEVERITY[threshold] ?? 2);
}

/** The findings of a device_status rule for the sweep's status changes. */
export function statusFindings(
  rule: NotificationRuleRow,
  changes: ReadonlyArray<{ device: MonitoredDevice; from: string; to: string }>,
): RuleFindings {
  const threshold = variablesOf(rule).status ?? "critical";
  const problems: IncidentSignal[] = [];
  const recoveries: IncidentSignal[] = [];
  for (const { device, from, to } of changes) {
    if (device.domain_id !== rule.domain_id || !matchesTags(rule, device.tags)) continue;
    const subjectKey = `device:${device.id}`;
    if (isProblemStatus(threshold, to)) {
      problems.push({
        subjectKey,
        line: { key: "deviceStatus", params: { device: device.ident, status: to } },
      });
    } else if (isProblemStatus(threshold, from)) {
      recoveries.push({
        subjectKey,
        line: { key: "deviceStatusResolved", params: { device: device.ident, status: to } },
      });
    }
  }
  return { rule, problems, recoveries };
}

/** The findings of a device_connected rule: each hello is an occurrence. */
export function connectedFindings(
  rule: NotificationRuleRow,
  devices: readonly MonitoredDevice[],
): RuleFindings {
  const occurrences = devices
    .filter((device) => device.domain_id === rule.domain_id && matchesTags(rule, device.tags))
    .map((device) => ({
      subjectKey: `device:${device.id}`,
      line: { key: "deviceConnected" as const, params: { device: device.ident } },
    }));
  return { rule, occurrences };
}

/** The findings of a device_event rule: events of its kind, levels, tags and text. */
export function eventFindings(rule: NotificationRuleRow, events: readonly MonitoredEvent[]): RuleFindings {
  const { kind, contains } = variablesOf(rule);
  const levels = rule.filter_levels ?? [];
  const needle = (contains ?? "").trim().toLowerCase();
  const occurrences = events
    .filter(
      (event) =>
        event.domain_id === rule.domain_id &&
        event.device_id !== null &&
        matchesTags(rule, event.tags) &&
        (levels.length === 0 || levels.includes(event.level)) &&
        (!kind || kind === "any" || kind === event.kind) &&
        (needle === "" || event.message.toLowerCase().includes(needle)),
    )
    .map((event) => ({
      subjectKey: `event:${event.device_id}:${event.kind}`,
      line: {
        key: "deviceEvent" as const,
        params: { device: event.ident ?? "", level: event.level, kind: event.kind, message: event.message },
      },
    }));
  return { rule, occurrences };
}

/** The findings of a user_action rule. */
export function actionFindings(
  rule: NotificationRuleRow,
  action: {
    domain_id: string;
    action: string;
    author: string;
    devices: ReadonlyArray<{ id: string; ident: string; tags: string[] }>;
  },
): RuleFindings {
  const wanted = variablesOf(rule).action ?? "any";
  if (action.domain_id !== rule.domain_id || (wanted !== "any" && wanted !== action.action)) return { rule };
  const occurrences = action.devices
    .filter((device) => matchesTags(rule, device.tags))
    .map((device) => ({
      subjectKey: `action:${device.id}:${action.action}`,
      line: {
        key: "userAction" as const,
        params: { device: device.ident, author: action.author, action: action.action },
      },
    }));
  return { rule, occurrences };
}

/** The findings of a password_expired or password_reset rule about one person. */
export function passwordFindings(rule: NotificationRuleRow, user: MonitoredUser): RuleFindings {
  if (user.domain_id !== rule.domain_id) return { rule };
  const key = rule.monitor === "password_expired" ? "passwordExpired" : "passwordReset";
  return {
    rule,
    occurrences: [{ subjectKey: `user:${user.id}`, line: { key, params: { user: user.username } } }],
  };
}
