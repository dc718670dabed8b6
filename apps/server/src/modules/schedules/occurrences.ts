import type { ScheduleRegular } from "@cellfleet/contract";
import { DateTime } from "luxon";

// When a schedule rule fires (spec section 3 `regular`), worked out in the rule's IANA zone with
// luxon, so the wall-clock time holds across daylight-saving changes (ADR 020).
//
// - daily: every day at the time.
// - weekly: on the chosen ISO days (1 Monday … 7 Sunday), in the chosen weeks of the month: week n
//   is days 7n−6 … 7n (so "the 2nd Monday" is the Monday in days 8–14), "last" is the month's last
//   seven days (so "the last Monday" is one in them). No weeks chosen means every week. Days 29–31
//   belong to no numbered week: a fifth Monday fires only for "last" or for every week.
// - A time the day does not have (the spring-forward gap, 02:30 in Berlin on the last Sunday of
//   March) fires as far past the gap's start as the time was: luxon moves 02:30 to 03:30.
// - A time the day has twice (the fall-back hour) fires once, at the first of them.

/** How far ahead a next occurrence is looked for: every valid rule has one within two months. */
const SEARCH_DAYS = 400;

/** The week of the month a day falls in (1–4, or 5 for days 29–31). */
function weekOfMonth(day: number): number {
  return Math.ceil(day / 7);
}

/** Whether a rule fires on a local calendar date. */
export function firesOnDate(regular: ScheduleRegular, date: DateTime): boolean {
  if (regular.basic === "daily") return true;
  if (!regular.options.days.includes(date.weekday)) return false;
  const weeks = regular.options.weeks;
  if (weeks.length === 0) return true;
  const daysInMonth = date.daysInMonth ?? 31;
  if (weeks.includes("last") && date.day > daysInMonth - 7) return true;
  const week = weekOfMonth(date.day);
  return week <= 4 && weeks.includes(week as 1 | 2 | 3 | 4);
}

/** The instant a rule's time falls at on one local date (the first, when the hour repeats). */
function instantOn(date: DateTime, time: string, zone: string): DateTime {
  const [hour, minute] = time.split(":").map(Number);
  const candidate = DateTime.fromObject(
    { year: date.year, month: date.month, day: date.day, hour, minute },
    { zone },
  );
  // luxon reads a repeated wall time at the later offset; an hour earlier may show the same wall time.
  const earlier = candidate.minus({ hours: 1 });
  if (earlier.hour === candidate.hour && earlier.minute === candidate.minute && earlier.day === candidate.day)
    return earlier;
  return candidate;
}

/** The first occurrence strictly after `after`, or null when the rule can never fire. */
export function nextOccurrence(regular: ScheduleRegular, zone: string, after: Date): Date | null {
  const start = DateTime.fromJSDate(after, { zone }).startOf("day");
  if (!start.isValid) return null;
  if (regular.basic === "weekly" && regular.options.days.length === 0) return null;
  for (let offset = 0; offset < SEARCH_DAYS; offset += 1) {
    const date = start.plus({ days: offset });
    if (!firesOnDate(regular, date)) continue;
    const instant = instantOn(date, regular.time, zone);
    if (instant.toMillis() > after.getTime()) return instant.toJSDate();
  }
  return null;
}

/** Every occurrence in [from, to), in order: for tests and for showing what a rule will do. */
export function occurrencesBetween(regular: ScheduleRegular, zone: string, from: Date, to: Date): Date[] {
  const found: Date[] = [];
  let cursor = new Date(from.getTime() - 1);
  for (;;) {
    const next = nextOccurrence(regular, zone, cursor);
    if (next === null || next.getTime() >= to.getTime()) return found;
    found.push(next);
    cursor = next;
  }
}
