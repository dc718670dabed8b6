import {
  type DomainSettings,
  type FormError,
  REMOTE_ACCESS_LIMIT_RANGES,
  type RemoteAccessLimit,
  STATUS_THRESHOLD_FORM_ORDER,
  type StatusThreshold,
  validateCopies,
  validateRemoteAccessLimit,
  validateStatusThresholds,
  validateTimeZone,
} from "@cellfleet/contract";
import { timeOfMinute, windowOf } from "../../components/time-window/timeWindow";

/** The statuses with minutes, in the form's order (most severe first: each is compared with the one above). */
export const THRESHOLD_FIELDS = STATUS_THRESHOLD_FORM_ORDER;
/** One of them. */
export type ThresholdField = (typeof THRESHOLD_FIELDS)[number];
/** Remote access's limits (ADR 038), in the form's order. */
export const REMOTE_ACCESS_FIELDS = Object.keys(REMOTE_ACCESS_LIMIT_RANGES) as RemoteAccessLimit[];

/**
 * The settings form as typed: every field a text, so a blank or a fraction can be told apart and
 * refused; the rollouts' answer (ADR 031): a switch and the window's two times ("HH:MM" or empty).
 */
export type SettingsFormValues = Record<
  ThresholdField | RemoteAccessLimit | "backup" | "journal" | "time_zone" | "window_start" | "window_end",
  string
> & {
  auto_accept: boolean;
};

/** Every zone the browser knows, UTC among them, the stored one first when the browser lacks it. */
export function timeZoneChoices(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const all = zones.includes("UTC") ? zones : ["UTC", ...zones];
  return all.includes(current) || validateTimeZone(current) !== null ? all : [current, ...all];
}

/** The stored settings as form values. */
export function toSettingsForm(settings: DomainSettings): SettingsFormValues {
  const minutes = (name: ThresholdField) =>
    String(settings.status.find((entry) => entry.name === name)?.minutes ?? "");
  return {
    warning: minutes("warning"),
    pending: minutes("pending"),
    online: minutes("online"),
    backup: String(settings.backup.copies),
    journal: String(settings.journal.copies),
    time_zone: settings.time_zone,
    auto_accept: settings.rollouts.auto_accept,
    window_start: timeOfMinute(settings.rollouts.window?.start),
    window_end: timeOfMinute(settings.rollouts.window?.end),
    idle_minutes: String(settings.remote_access.idle_minutes),
    max_minutes: String(settings.remote_access.max_minutes),
    bandwidth_kib: String(settings.remote_access.bandwidth_kib),
    quota_mib: String(settings.remote_access.quota_mib),
    recording_days: String(settings.remote_access.recording_days),
  };
}

/** The rollouts' window as typed: a window, none (both empty), or what is wrong with it. */
export function rolloutWindowOf(values: Pick<SettingsFormValues, "window_start" | "window_end">) {
  return windowOf(values.window_start, values.window_end);
}

/** Form values, once valid, as the body of PATCH /api/settings/domains-all. */
export function toSettingsBody(values: SettingsFormValues): DomainSettings {
  const window = rolloutWindowOf(values);
  return {
    status: THRESHOLD_FIELDS.map((name): StatusThreshold => ({ name, minutes: Number(values[name].trim()) })),
    backup: { copies: Number(values.backup.trim()) },
    journal: { copies: Number(values.journal.trim()) },
    time_zone: values.time_zone,
    rollouts: { auto_accept: values.auto_accept, window: typeof window === "object" ? window : null },
    remote_access: {
      idle_minutes: Number(values.idle_minutes.trim()),
      max_minutes: Number(values.max_minutes.trim()),
      bandwidth_kib: Number(values.bandwidth_kib.trim()),
      quota_mib: Number(values.quota_mib.trim()),
      recording_days: Number(values.recording_days.trim()),
    },
  };
}

/**
 * The message of one threshold field, judged by the contract's rule over the whole form: required,
 * an integer from 15 to 10080, and not above the status listed before it.
 */
export function thresholdError(values: SettingsFormValues, name: ThresholdField): FormError | null {
  const results = validateStatusThresholds(
    THRESHOLD_FIELDS.map((field) => ({ name: field, minutes: values[field] })),
  );
  return results[THRESHOLD_FIELDS.indexOf(name)] ?? null;
}

/** The message of a remote-access limit's field: required, an integer in its range. */
export function remoteAccessError(name: RemoteAccessLimit, value: string): FormError | null {
  return validateRemoteAccessLimit(name, value);
}

/** The message of a copies field: required, 1 to 100. */
export function copiesError(value: string): FormError | null {
  return validateCopies(value);
}
