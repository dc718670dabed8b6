import type { ScheduleRule } from "@cellfleet/contract";
import type { TFunction } from "i18next";

const weekdayCache = new Map<string, string[]>();

/** The short names of the days of the week, Monday first, in the interface language. */
export function weekdayNames(language: string): string[] {
  let names = weekdayCache.get(language);
  if (!names) {
    const format = new Intl.DateTimeFormat(language, { weekday: "short", timeZone: "UTC" });
    // 1 January 2024 was a Monday.
    names = Array.from({ length: 7 }, (_, index) => format.format(Date.UTC(2024, 0, 1 + index)));
    weekdayCache.set(language, names);
  }
  return names;
}

/** When a rule fires, in words: "Daily at 03:00" or "Mon, Fri · 1st, last week · 03:00 (Europe/Berlin)". */
export function describeSchedule(rule: ScheduleRule, t: TFunction, language: string): string {
  const { regular } = rule;
  const at = `${regular.time} (${rule.time_zone})`;
  if (regular.basic === "daily") return t("schedules.summary.daily", { time: at });
  const names = weekdayNames(language);
  const days = regular.options.days.map((day) => names[day - 1]).join(", ");
  const weeks =
    regular.options.weeks.length === 0
      ? t("schedules.summary.everyWeek")
      : t("schedules.summary.weeks", {
          weeks: regular.options.weeks.map((week) => t(`schedules.weeks.${week}`)).join(", "),
        });
  return `${days} · ${weeks} · ${at}`;
}
