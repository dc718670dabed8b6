// A maintenance window typed as two times of day (a rollout's, ADR 021; a domain's own, ADR 031).

/** "HH:MM" → minute of the day; null for an empty or malformed value. */
export function minuteOfTime(value: string): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const minute = Number(match[1]) * 60 + Number(match[2]);
  return minute < 24 * 60 ? minute : null;
}

/**
 * A window: null with both ends empty, the minutes with both set, "partial" when only
 * one is, "empty" when they are equal (a window that never opens).
 */
export function windowOf(
  start: string,
  end: string,
): { start: number; end: number } | null | "partial" | "empty" {
  const from = minuteOfTime(start);
  const to = minuteOfTime(end);
  if (from === null && to === null) return null;
  if (from === null || to === null) return "partial";
  return from === to ? "empty" : { start: from, end: to };
}

/** A minute of the day as "HH:MM" (an input of type time); empty for none. */
export function timeOfMinute(minute: number | null | undefined): string {
  if (minute === null || minute === undefined) return "";
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}
