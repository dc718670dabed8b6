import type { ScheduleRule } from "@cellfleet/contract";
import type { ScheduleRuleRow } from "./schedules.repo";

/** The one mapping of a rule row to what the API answers. */
export function toScheduleRuleDto(row: ScheduleRuleRow): ScheduleRule {
  return {
    _id: row.id,
    type: row.type,
    name: row.name,
    active: row.active,
    regular: row.regular,
    time_zone: row.time_zone,
    active_for: row.active_for,
    search: { filterTags: row.tags },
    copies: row.copies,
    next_run: row.next_run ? row.next_run.getTime() : null,
    last_run: row.last_run ? row.last_run.getTime() : null,
    last_command_id: row.last_command_id,
    create_time: row.create_time.getTime(),
  };
}
