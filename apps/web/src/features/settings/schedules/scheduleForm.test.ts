import { type ScheduleRule, ScheduleRuleInputSchema } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { toScheduleBody, toScheduleForm } from "./scheduleForm";

const stored: ScheduleRule = {
  _id: "r1",
  type: "backup",
  name: "Nightly",
  active: true,
  regular: { basic: "weekly", options: { weeks: ["last", 1], days: [5, 1] }, time: "03:00" },
  time_zone: "Europe/Berlin",
  active_for: "group",
  search: { filterTags: ["north"] },
  copies: 7,
  next_run: null,
  last_run: null,
  last_command_id: null,
  create_time: 0,
};

describe("the schedule rule form", () => {
  it("round-trips a stored rule into a body the contract accepts, days and weeks in order", () => {
    const body = toScheduleBody(toScheduleForm(stored));
    expect(ScheduleRuleInputSchema.parse(body)).toEqual({
      name: "Nightly",
      active: true,
      regular: { basic: "weekly", options: { weeks: [1, "last"], days: [1, 5] }, time: "03:00" },
      active_for: "group",
      search: { filterTags: ["north"] },
      copies: 7,
    });
  });

  it("drops days, weeks and tags a daily rule for all routers does not use", () => {
    const values = { ...toScheduleForm(stored), basic: "daily" as const, active_for: "all" as const };
    const body = toScheduleBody(values);
    expect(body.regular.options).toEqual({ weeks: [], days: [] });
    expect(body.search.filterTags).toEqual([]);
  });

  it("starts a new rule without a zone of its own: the body carries none (the domain's is used)", () => {
    const values = toScheduleForm(null);
    expect(values).toMatchObject({ copies: "10", time: "03:00", basic: "daily" });
    expect(toScheduleBody(values).regular).toMatchObject({
      basic: "daily",
      options: { days: [], weeks: [] },
    });
    expect(values).not.toHaveProperty("time_zone");
    expect(toScheduleBody(values)).not.toHaveProperty("time_zone");
  });
});
