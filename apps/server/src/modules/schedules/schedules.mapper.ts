import type { ScheduleRule } from "@cellfleet/contract";
import type { ScheduleRuleRow } from "./schedules.repo";

/** The one mapping of a rule row to what the API answers; `timeZone` is the domain's (ADR 020). */
export function toScheduleRuleDto(row: ScheduleRuleRow, timeZone: string): ScheduleRule {
  return {
    _id: row.id,
    type: row.type,
    name: row.name,
    active: row.active,
    regular: row.regular,
    time_zone: timeZone,
    active_for: row.active_for,
    search: { filterTags: row.tags },
    copies: row.copies,
    next_run: row.next_run ? row.next_run.getTime() : null,
    last_run: row.last_run ? row.last_run.getTime() : null,
    last_command_id: row.last_command_id,
    create_time: row.create_time.getTime(),
  };
}
