import { fileSizeParts } from "@cellfleet/contract";
import { formatNumber } from "../app/format";
import { i18n } from "../app/i18n";

// Units follow the interface language (issue 11): "1,5 МБ", "3д 4ч 5м" and "-98,4 дБм" in Russian,
// "1.5 MB", "3d 4h 5m" and "-98.4 dBm" in English. The texts are the locale's (files.units, units).

/** A byte count as '1.5 MB' (units of 1024, spec section 9), in the interface language. */
export function formatBytes(bytes: number, language: string = i18n.language): string {
  const { value, unit } = fileSizeParts(bytes);
  return `${formatNumber(value, language)} ${i18n.t(`files.units.${unit}`, { lng: language })}`;
}

/** A duration in seconds as '3d 4h 5m' (or '45s' under a minute), in the interface language. */
export function formatDuration(totalSeconds: number, language: string = i18n.language): string {
  const unit = (key: "d" | "h" | "m" | "s", count: number) =>
    `${count}${i18n.t(`units.duration.${key}`, { lng: language })}`;
  const seconds = Math.max(0, Math.floor(totalSeconds));
  if (seconds < 60) return unit("s", seconds);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days ? unit("d", days) : "", hours ? unit("h", hours) : "", unit("m", minutes)]
    .filter(Boolean)
    .join(" ");
}

/**
 * A radio level in decibels, '-98,4 дБм' or '-98.4 dBm' by the interface language; `signed` writes
 * a plus on a rise ('+3 dB'), for changes.
 */
export function formatDecibels(
  value: number,
  unit: "dB" | "dBm",
  { signed = false, language = i18n.language }: { signed?: boolean; language?: string } = {},
): string {
  const number = formatNumber(value, language);
  return `${signed && value > 0 ? "+" : ""}${number} ${i18n.t(`units.${unit}`, { lng: language })}`;
}

/** A value that may be missing, as text; missing shows a dash. */
export function orDash(value: string | number | null | undefined): string {
  return value === null || value === undefined || value === "" ? "—" : String(value);
}
