import { z } from "zod";
import {
  COPIES_MAX,
  COPIES_MIN,
  INTEGER_COUNT_MAX,
  INTEGER_COUNT_MIN,
  PORT_MAX,
  PORT_MIN,
  STATUS_MINUTES_MAX,
  STATUS_MINUTES_MIN,
} from "../constants";
import type { StatusThreshold } from "../status";
import { REMOTE_ACCESS_LIMIT_RANGES, type RemoteAccessLimit } from "../tunnel-limits";
import { isBlank, type ValidationKey, type ValidationResult } from "./keys";
import { toInteger } from "./shared";

type NumberInput = number | string | null | undefined;

function validateIntegerRange<K extends ValidationKey>(
  value: NumberInput,
  min: number,
  max: number,
  key: K,
): ValidationResult<"required" | K> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const number = toInteger(value);
  return number !== null && number >= min && number <= max ? null : key;
}

/** Saved copies of a backup or journal rule: an integer from 1 to 100 ('a value between 1 and 100'). */
export function validateCopies(value: NumberInput): ValidationResult<"required" | "copiesRange"> {
  return validateIntegerRange(value, COPIES_MIN, COPIES_MAX, "copiesRange");
}

/** The message key of each remote-access limit out of its range. */
const REMOTE_ACCESS_RANGE_KEYS = {
  idle_minutes: "idleMinutesRange",
  max_minutes: "maxMinutesRange",
  bandwidth_kib: "bandwidthRange",
  quota_mib: "quotaRange",
  recording_days: "recordingDaysRange",
} as const satisfies Record<RemoteAccessLimit, ValidationKey>;

/** A remote-access limit of the domain settings: an integer in REMOTE_ACCESS_LIMIT_RANGES (ADR 038). */
export function validateRemoteAccessLimit(
  name: RemoteAccessLimit,
  value: NumberInput,
): ValidationResult<"required" | (typeof REMOTE_ACCESS_RANGE_KEYS)[RemoteAccessLimit]> {
  const { min, max } = REMOTE_ACCESS_LIMIT_RANGES[name];
  return validateIntegerRange(value, min, max, REMOTE_ACCESS_RANGE_KEYS[name]);
}

/** An "integer count" field: an integer from 2 to 100000. */
export function validateIntegerCount(value: NumberInput): ValidationResult<"required" | "countRange"> {
  return validateIntegerRange(value, INTEGER_COUNT_MIN, INTEGER_COUNT_MAX, "countRange");
}

/** A TCP/UDP port: an integer from 0 to 65535. */
export function validatePort(value: NumberInput): ValidationResult<"required" | "portRange"> {
  return validateIntegerRange(value, PORT_MIN, PORT_MAX, "portRange");
}

/**
 * Status-threshold minutes: required, an integer from 15 to 10080, and "not above the previous
 * status's value", read literally: with `previous` given, `value > previous` is an error.
 *
 * "Previous" is the status shown before this one in the settings form, which lists the configured
 * statuses in the display order of spec section 4 (critical, warning, pending, online; critical
 * has no minutes). So pending's minutes may not exceed warning's, nor online's pending's, which is
 * also what keeps every band of `computeDeviceStatus` reachable. Use {@link validateStatusThresholds}
 * to judge a whole list.
 */
export function validateStatusMinutes(
  value: NumberInput,
  previous?: number | null,
): ValidationResult<"required" | "statusMinutesRange" | "statusMinutesAbovePrevious"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const minutes = statusMinutesOf(value);
  if (minutes === null) return "statusMinutesRange";
  return previous !== null && previous !== undefined && minutes > previous
    ? "statusMinutesAbovePrevious"
    : null;
}

// The minutes of a threshold when they are an integer within range, otherwise null.
function statusMinutesOf(value: NumberInput): number | null {
  if (value === null || value === undefined) return null;
  const minutes = toInteger(value);
  return minutes !== null && minutes >= STATUS_MINUTES_MIN && minutes <= STATUS_MINUTES_MAX ? minutes : null;
}

/** The order the settings form lists the statuses that have minutes: most severe first (spec section 4). */
export const STATUS_THRESHOLD_FORM_ORDER = ["warning", "pending", "online"] as const;

/**
 * Judges the status thresholds of the settings form; answers one result per entry, in the order
 * given. Each status is compared with the one before it in {@link STATUS_THRESHOLD_FORM_ORDER},
 * so `[{online, 30}, {pending, 30}, {warning, 60}]` is valid and `[{online, 60}, {pending, 30}, …]`
 * flags online.
 */
export function validateStatusThresholds(
  thresholds: readonly { name: StatusThreshold["name"]; minutes: NumberInput }[],
): ValidationResult<"required" | "statusMinutesRange" | "statusMinutesAbovePrevious">[] {
  return thresholds.map((threshold) => {
    // The nearest status before this one that the list holds (a list may leave one out).
    const before = STATUS_THRESHOLD_FORM_ORDER.slice(0, STATUS_THRESHOLD_FORM_ORDER.indexOf(threshold.name));
    const previousName = before.reverse().find((name) => thresholds.some((entry) => entry.name === name));
    const previousEntry = thresholds.find((entry) => entry.name === previousName);
    // A previous value that is itself invalid is reported on its own row, not held against this one.
    const previous = previousEntry ? statusMinutesOf(previousEntry.minutes) : null;
    return validateStatusMinutes(threshold.minutes, previous);
  });
}

/**
 * A timer monitor's check_delay as typed in a form: a positive integer without a leading zero.
 * "1" and "10" are valid; "0", "01", "-1", "+1" and "1.5" are not.
 */
export function validateCheckDelay(value: NumberInput): ValidationResult<"required" | "checkDelayInvalid"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const text = String(value).trim();
  return /^[1-9]\d*$/.test(text) && Number.isSafeInteger(Number(text)) ? null : "checkDelayInvalid";
}

/** Saved copies as a JSON number; see {@link validateCopies}. */
export const CopiesSchema = z
  .number()
  .int("copiesRange")
  .min(COPIES_MIN, "copiesRange")
  .max(COPIES_MAX, "copiesRange");
/** An integer count as a JSON number; see {@link validateIntegerCount}. */
export const IntegerCountSchema = z
  .number()
  .int("countRange")
  .min(INTEGER_COUNT_MIN, "countRange")
  .max(INTEGER_COUNT_MAX, "countRange");
/** A port as a JSON number; see {@link validatePort}. */
export const PortSchema = z.number().int("portRange").min(PORT_MIN, "portRange").max(PORT_MAX, "portRange");
/** Status-threshold minutes as a JSON number, range only; the order rule is {@link validateStatusThresholds}. */
export const StatusMinutesSchema = z
  .number()
  .int("statusMinutesRange")
  .min(STATUS_MINUTES_MIN, "statusMinutesRange")
  .max(STATUS_MINUTES_MAX, "statusMinutesRange");
/** A check_delay as a JSON number: a positive safe integer. */
export const CheckDelaySchema = z
  .number()
  .int("checkDelayInvalid")
  .min(1, "checkDelayInvalid")
  .max(Number.MAX_SAFE_INTEGER, "checkDelayInvalid");
