import { CALENDAR_WEEK_SECONDS } from "@cellfleet/contract";

/** Tabs of the date-range filter (spec section 2): everything, today, yesterday, last week, a custom range. */
export type DateRangeTab = "all" | "today" | "yesterday" | "week" | "custom";

/** A time window in ms since the epoch; null ends are open. */
export interface DateRange {
  tab: DateRangeTab;
  since: number | null;
  until: number | null;
}

/** No filter: every date. */
export const ALL_DATES: DateRange = { tab: "all", since: null, until: null };

function startOfDay(ms: number): number {
  const date = new Date(ms);
  date.setHours(0, 0, 0, 0);
  return date.getTime();
}

const DAY_MS = 86_400_000;

/** The window of a preset tab at `now` (local days); never reaches past `now`. */
export function presetRange(tab: Exclude<DateRangeTab, "custom">, now: number): DateRange {
  switch (tab) {
    case "all":
      return ALL_DATES;
    case "today":
      return { tab, since: startOfDay(now), until: now };
    case "yesterday": {
      const today = startOfDay(now);
      return { tab, since: startOfDay(today - DAY_MS / 2), until: today - 1 };
    }
    case "week":
      return { tab, since: now - CALENDAR_WEEK_SECONDS * 1000, until: now };
  }
}

/** A `yyyy-mm-dd` value of a date input for a local day. */
export function toDateInput(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The start of the local day a `yyyy-mm-dd` input names, or null when it names none. */
export function fromDateInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isNaN(date.getTime()) ? null : date.getTime();
}

/**
 * A custom range from two day inputs: from the start of the first day to the end of the last, with
 * the ends swapped when given backwards and the end held at `now` (no future dates).
 */
export function customRange(from: string, to: string, now: number): DateRange {
  let since = fromDateInput(from);
  let untilDay = fromDateInput(to);
  if (since !== null && untilDay !== null && since > untilDay) [since, untilDay] = [untilDay, since];
  if (since !== null && since > now) since = startOfDay(now);
  const until = untilDay === null ? null : Math.min(untilDay + DAY_MS - 1, now);
  return { tab: "custom", since, until };
}
