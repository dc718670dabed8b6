import { signalQualityOf } from "./insight/signal";
import type { SignalQuality } from "./lists";

// The label tables of spec section 4. Each function answers a stable label key; the web translates it.

// --- Device status ---

/**
 * Statuses that carry a minutes threshold in the domain settings, in order of checking: online, then
 * pending (a router late with its report: between the online and the pending minutes), then warning.
 * Pending also means "never reported", which needs no threshold (spec section 4).
 */
export const THRESHOLD_STATUSES = ["online", "pending", "warning"] as const;
/** A configured status: a device is in it while its last contact is at most `minutes` old. */
export interface StatusThreshold {
  name: (typeof THRESHOLD_STATUSES)[number];
  minutes: number;
}

/**
 * Thresholds a new domain starts with; our choice: online up to 15 minutes, warning up to 60, and
 * pending's minutes equal to online's, so a late router goes straight to warning until an admin
 * widens the pending band (the behaviour domains had before pending had minutes).
 */
export const DEFAULT_STATUS_THRESHOLDS: readonly StatusThreshold[] = [
  { name: "online", minutes: 15 },
  { name: "pending", minutes: 15 },
  { name: "warning", minutes: 60 },
];

const MINUTE_MS = 60_000;

/**
 * A device's status (spec section 4): pending when it never reported; otherwise the first
 * configured status, checked online, pending, warning whatever the array order, whose threshold
 * covers the time since last contact (inclusive: exactly 15 minutes is within a 15-minute
 * threshold); critical beyond every threshold. A status missing from the settings is skipped.
 * A contact time in the future counts as zero minutes ago.
 */
export function computeDeviceStatus(
  lastContactMs: number | null,
  nowMs: number,
  thresholds: readonly StatusThreshold[],
): "pending" | "online" | "warning" | "critical" {
  if (lastContactMs === null) return "pending";
  const elapsedMs = Math.max(0, nowMs - lastContactMs);
  for (const name of THRESHOLD_STATUSES) {
    const threshold = thresholds.find((entry) => entry.name === name);
    if (threshold && elapsedMs <= threshold.minutes * MINUTE_MS) return name;
  }
  return "critical";
}

/**
 * Whether a router can be reached now (ADR 032): what the gateway knows of its connection first
 * (connected or not), and where it does not know (null: an external broker, or not connected since
 * the gateway began to tell) the status of spec section 4 (online). A router killed a minute ago is
 * still "online" by the status for its threshold, but not reachable.
 */
export function isReachableNow(connected: boolean | null, status: string): boolean {
  return connected ?? status === "online";
}

/** Collected data is fresh while it is younger than the warning rule's minutes (strictly). */
export function isCollectFresh(createMs: number, nowMs: number, warningMinutes: number): boolean {
  return nowMs - createMs < warningMinutes * MINUTE_MS;
}

// --- Actions (commands) ---

/** Statuses of an action. `unapproved` awaits an administrator; `in_progress` is shown "not completed". */
export const ACTION_STATUSES = [
  "unapproved",
  "delayed",
  "in_progress",
  "completed",
  "failed",
  "cancelled",
  "expired",
] as const;
/** An action's status. */
export type ActionStatus = (typeof ACTION_STATUSES)[number];
/** Label keys of action statuses. */
export type ActionStatusLabelKey =
  | "unapproved"
  | "delayed"
  | "notCompleted"
  | "completed"
  | "failed"
  | "cancelled"
  | "expired";

/** The label key of an action status: everything by its name except `in_progress`, shown "not completed". */
export function actionStatusLabelKey(status: ActionStatus): ActionStatusLabelKey {
  return status === "in_progress" ? "notCompleted" : status;
}

/** Whether an action status is final: nothing more happens to the action. */
export function isActionFinished(status: ActionStatus): boolean {
  return status === "completed" || status === "failed" || status === "cancelled" || status === "expired";
}

/** Results of an action and of its reports (spec section 4). */
export const ACTION_RESULTS = [
  "not_sent",
  "sent_not_confirmed",
  "completed",
  "no_files",
  "attempts_exceeded",
  "declined",
  "timed_out",
  "unknown",
  "success",
  "no",
  "error",
] as const;
/** An action or report result. */
export type ActionResult = (typeof ACTION_RESULTS)[number];
/** Label keys of action and report results. */
export type ActionResultLabelKey =
  | "notSent"
  | "sentNotConfirmed"
  | "completed"
  | "noFiles"
  | "attemptsExceeded"
  | "declined"
  | "timedOut"
  | "unknown"
  | "success"
  | "no"
  | "error";

const ACTION_RESULT_LABELS: Record<string, ActionResultLabelKey> = {
  not_sent: "notSent",
  sent_not_confirmed: "sentNotConfirmed",
  completed: "completed",
  no_files: "noFiles",
  attempts_exceeded: "attemptsExceeded",
  declined: "declined",
  cancelled_by_user: "declined",
  timed_out: "timedOut",
  runtime_expired: "timedOut",
  unknown: "unknown",
  success: "success",
  no: "no",
  error: "error",
};

/** The label key of a result; the spec's pairs share one ("cancelled_by_user", "runtime_expired"); else unknown. */
export function actionResultLabelKey(result: string | null | undefined): ActionResultLabelKey {
  if (result && Object.hasOwn(ACTION_RESULT_LABELS, result)) return ACTION_RESULT_LABELS[result];
  return "unknown";
}

/** Statuses of a scheduled backup or journal. */
export const FILE_TASK_STATUSES = ["failed", "completed"] as const;
/** A backup or journal status. */
export type FileTaskStatus = (typeof FILE_TASK_STATUSES)[number];

/** The label key of a backup or journal status: anything but "completed" is shown failed. */
export function fileTaskStatusLabelKey(status: string | null | undefined): FileTaskStatus {
  return status === "completed" ? "completed" : "failed";
}

// --- Firmware and licences ---

/** A firmware status label: a key, and the HTTP code for "httpError" ('HTTP Error {code}'). */
export type FirmwareStatusLabel =
  | { key: "pending" | "accepted" | "ready" | "error" | "invalidResource" }
  | { key: "httpError"; params: { code: number } };

/** Firmware status: 0 Pending, 1 Accepted, 2 Ready, 240 Error, 415 or 422 Invalid resource, else 'HTTP Error {n}'. */
export function firmwareStatusLabel(status: number): FirmwareStatusLabel {
  switch (status) {
    case 0:
      return { key: "pending" };
    case 1:
      return { key: "accepted" };
    case 2:
      return { key: "ready" };
    case 240:
      return { key: "error" };
    case 415:
    case 422:
      return { key: "invalidResource" };
    default:
      return { key: "httpError", params: { code: status } };
  }
}

/** Label keys of licence statuses. */
export type LicenseStatusLabelKey =
  | "pending"
  | "activated"
  | "ready"
  | "serverError"
  | "banned"
  | "expired"
  | "error";

/** Licence status: 0 Pending, 1 Activated, 2 Ready, 25 Server error, 230 Banned, 254 Expired, else Error. */
export function licenseStatusLabelKey(status: number): LicenseStatusLabelKey {
  switch (status) {
    case 0:
      return "pending";
    case 1:
      return "activated";
    case 2:
      return "ready";
    case 25:
      return "serverError";
    case 230:
      return "banned";
    case 254:
      return "expired";
    default:
      return "error";
  }
}

// --- Network ---

/** WAN state: 1 Online; anything else (0, or nothing reported) Offline. */
export function wanStateLabelKey(state: number | string | null | undefined): "online" | "offline" {
  return Number(state) === 1 ? "online" : "offline";
}

/** A modem is the main one when its primary flag is set, otherwise the backup. */
export function modemRoleLabelKey(isPrimary: boolean): "main" | "backup" {
  return isPrimary ? "main" : "backup";
}

/** Tunnel state: Up or Down. */
export function tunnelStateLabelKey(isUp: boolean): "up" | "down" {
  return isUp ? "up" : "down";
}

/** Service state: Running or Stop. */
export function serviceStateLabelKey(isRunning: boolean): "running" | "stop" {
  return isRunning ? "running" : "stop";
}

/** Link state: up or down. */
export function linkStateLabelKey(isUp: boolean): "up" | "down" {
  return isUp ? "up" : "down";
}

/**
 * Signal quality from a modem's CSQ (0..31, 99 = not known). Our thresholds, after the usual
 * reading of AT+CSQ: below 10 Cell Edge, 10-14 Mid Cell, 15-19 Normal, 20 and up Excellent;
 * 99, a missing value or anything outside 0..31 is unknown (the CSQ row of `SIGNAL_BANDS`).
 */
export function signalQualityFromCsq(csq: number | null | undefined): SignalQuality {
  return signalQualityOf("csq", csq);
}
