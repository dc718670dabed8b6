import { JUST_NOW_MINUTES, PASSWORD_EXPIRY_WARNING_DAYS, SIZE_UNIT_BASE } from "./constants";

// Pure display rules of spec sections 3, 4 and 9: relative time, role colours, the info-message
// queue, password expiry, file sizes and firmware series.

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A relative-time label: a key, and the count for the "... ago" keys. */
export type RelativeTimeLabel =
  | { key: "justNow" }
  | { key: "minutesAgo" | "hoursAgo" | "daysAgo"; count: number };

/**
 * How long ago a moment was: "justNow" when under 30 minutes ago (or in the future), then whole
 * minutes under an hour, whole hours under a day, else whole days.
 */
export function relativeTimeLabel(thenMs: number, nowMs: number): RelativeTimeLabel {
  const elapsed = nowMs - thenMs;
  if (elapsed < JUST_NOW_MINUTES * MINUTE_MS) return { key: "justNow" };
  if (elapsed < HOUR_MS) return { key: "minutesAgo", count: Math.floor(elapsed / MINUTE_MS) };
  if (elapsed < DAY_MS) return { key: "hoursAgo", count: Math.floor(elapsed / HOUR_MS) };
  return { key: "daysAgo", count: Math.floor(elapsed / DAY_MS) };
}

/** Palette colours of role chips (MUI colour names, so they follow the light and dark themes). */
export type RoleColor = "error" | "warning" | "info" | "success" | "default";

/** Role colours (spec section 4): root red, admin orange, assistant blue, operator green; unknown grey. */
export const ROLE_COLORS: Readonly<Record<1 | 2 | 3 | 4, RoleColor>> = {
  1: "error",
  2: "warning",
  3: "info",
  4: "success",
};

/** The chip colour of a role number; anything outside 1..4 is "default". */
export function roleColor(role: number): RoleColor {
  return Object.hasOwn(ROLE_COLORS, role) ? ROLE_COLORS[role as keyof typeof ROLE_COLORS] : "default";
}

/** Levels of an info message (the snackbar queue). */
export const INFO_MESSAGE_LEVELS = ["critical", "warning", "info", "success"] as const;
/** An info message level. */
export type InfoMessageLevel = (typeof INFO_MESSAGE_LEVELS)[number];

/** Priorities of the levels, lower is more urgent: critical 1, warning 2, info and success 3. */
export const INFO_MESSAGE_PRIORITY: Readonly<Record<InfoMessageLevel, number>> = {
  critical: 1,
  warning: 2,
  info: 3,
  success: 3,
};

/** A message of the info queue; `text` is already translated, `link` an optional path (e.g. /events). */
export interface InfoMessage {
  level: InfoMessageLevel;
  text: string;
  link?: string;
}

/**
 * Adds a message to the info queue (spec section 4) and answers the new queue, leaving the old one
 * untouched:
 * - critical replaces the whole queue;
 * - warning replaces the queue when its most urgent priority is above 1 (no critical queued, or the
 *   queue is empty); behind a critical it waits at the end instead of being lost;
 * - info and success are appended.
 * The queue shows its head for MESSAGE_TIMEOUT_MS, then the web drops it (`queue.slice(1)`).
 */
export function enqueueInfoMessage<M extends Pick<InfoMessage, "level">>(
  queue: readonly M[],
  message: M,
): M[] {
  const priority = INFO_MESSAGE_PRIORITY[message.level];
  if (priority === 1) return [message];
  if (priority === 2) {
    const existing = Math.min(...queue.map((entry) => INFO_MESSAGE_PRIORITY[entry.level]));
    if (existing > 1) return [message];
  }
  return [...queue, message];
}

/** Whole days left before a password expires (negative once it has), or null when it never does. */
export function passwordDaysLeft(expireDateMs: number | null, nowMs: number): number | null {
  return expireDateMs === null ? null : Math.floor((expireDateMs - nowMs) / DAY_MS);
}

/** The expiry banner shows when under 15 days of the password remain (or it has already expired). */
export function isPasswordExpiringSoon(expireDateMs: number | null, nowMs: number): boolean {
  return expireDateMs !== null && expireDateMs - nowMs < PASSWORD_EXPIRY_WARNING_DAYS * DAY_MS;
}

/** Units of file sizes, in steps of 1024. */
export const SIZE_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;
/** A file size unit. */
export type SizeUnit = (typeof SIZE_UNITS)[number];

/** A byte count in the largest unit that keeps it at 1 or more, rounded to one decimal. */
export function fileSizeParts(bytes: number): { value: number; unit: SizeUnit } {
  let value = Math.max(0, bytes);
  let index = 0;
  while (value >= SIZE_UNIT_BASE && index < SIZE_UNITS.length - 1) {
    value /= SIZE_UNIT_BASE;
    index++;
  }
  return { value: Math.round(value * 10) / 10, unit: SIZE_UNITS[index] ?? "B" };
}

/**
 * A firmware rule's series (spec section 3): the text before the first underscore of the URL's
 * last path segment; null (shown "N/A") when there is no underscore or nothing before it.
 */
export function firmwareSeriesFromUrl(url: string): string | null {
  const path = url.split(/[?#]/, 1)[0] ?? "";
  const segment = path.replace(/\/+$/, "").split("/").pop() ?? "";
  const underscore = segment.indexOf("_");
  return underscore > 0 ? segment.slice(0, underscore) : null;
}
