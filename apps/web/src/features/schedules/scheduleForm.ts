import {
  emptyScheduleRuleInput,
  type ScheduleRule,
  type ScheduleRuleInput,
  type ScheduleWeek,
  validateTimeZone,
} from "@cellfleet/contract";

/** What the rule form edits: the rule flattened, copies as typed. */
export interface ScheduleFormValues {
  name: string;
  active: boolean;
  basic: "daily" | "weekly";
  weeks: ScheduleWeek[];
  days: number[];
  time: string;
  time_zone: string;
  active_for: "all" | "group";
  tags: string[];
  copies: string;
}

/** The browser's zone, the zone a new rule starts in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/** Every zone the browser knows, the rule's own first when it is not among them. */
export function timeZoneChoices(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const all = zones.includes("UTC") ? zones : ["UTC", ...zones];
  return all.includes(current) || validateTimeZone(current) !== null ? all : [current, ...all];
}

/** The form's values of a stored rule, or of a new one in the browser's zone. */
export function toScheduleForm(rule: ScheduleRule | null, zone = browserTimeZone()): ScheduleFormValues {
  const source: ScheduleRuleInput = rule ?? emptyScheduleRuleInput(zone);
  return {
    name: source.name,
    active: source.active,
    basic: source.regular.basic,
    weeks: [...source.regular.options.weeks],
    days: [...source.regular.options.days],
    time: source.regular.time,
    time_zone: source.time_zone,
    active_for: source.active_for,
    tags: [...source.search.filterTags],
    copies: String(source.copies),
  };
}

/** The body of the save calls; days and weeks in calendar order, only for a weekly rule. */
export function toScheduleBody(values: ScheduleFormValues): ScheduleRuleInput {
  const isWeekly = values.basic === "weekly";
  const weekOrder = (week: ScheduleWeek) => (week === "last" ? 5 : week);
  return {
    name: values.name.trim(),
    active: values.active,
    regular: {
      basic: values.basic,
      options: {
        weeks: isWeekly ? [...values.weeks].sort((a, b) => weekOrder(a) - weekOrder(b)) : [],
        days: isWeekly ? [...values.days].sort((a, b) => a - b) : [],
      },
      time: values.time.trim(),
    },
    time_zone: values.time_zone,
    active_for: values.active_for,
    search: { filterTags: values.active_for === "group" ? values.tags : [] },
    copies: Number(values.copies.trim()),
  };
}
