import {
  emptyScheduleRuleInput,
  type ScheduleRule,
  type ScheduleRuleInput,
  type ScheduleWeek,
} from "@cellfleet/contract";

/** What the rule form edits: the rule flattened, copies as typed. */
export interface ScheduleFormValues {
  name: string;
  active: boolean;
  basic: "daily" | "weekly";
  weeks: ScheduleWeek[];
  days: number[];
  time: string;
  active_for: "all" | "group";
  tags: string[];
  copies: string;
}

/** The form's values of a stored rule, or of a new one (its time read in the domain's zone, ADR 020). */
export function toScheduleForm(rule: ScheduleRule | null): ScheduleFormValues {
  const source: ScheduleRuleInput = rule ?? emptyScheduleRuleInput();
  return {
    name: source.name,
    active: source.active,
    basic: source.regular.basic,
    weeks: [...source.regular.options.weeks],
    days: [...source.regular.options.days],
    time: source.regular.time,
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
    active_for: values.active_for,
    search: { filterTags: values.active_for === "group" ? values.tags : [] },
    copies: Number(values.copies.trim()),
  };
}
