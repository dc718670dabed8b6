import { describe, expect, it } from "vitest";
import { minuteOfTime, windowOf } from "./RolloutWindowFields";

describe("the rollout's window fields", () => {
  it("read HH:MM as a minute of the day", () => {
    expect(minuteOfTime("00:00")).toBe(0);
    expect(minuteOfTime("23:59")).toBe(1439);
    expect(minuteOfTime("")).toBeNull();
    expect(minuteOfTime("24:00")).toBeNull();
  });

  it("give no window when both are empty, minutes when both are set, and say what is wrong otherwise", () => {
    expect(windowOf("", "")).toBeNull();
    expect(windowOf("23:00", "02:30")).toEqual({ start: 1380, end: 150 });
    expect(windowOf("02:00", "")).toBe("partial");
    expect(windowOf("02:00", "02:00")).toBe("empty");
  });
});
