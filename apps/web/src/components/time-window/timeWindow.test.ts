import { describe, expect, it } from "vitest";
import { minuteOfTime, timeOfMinute, windowOf } from "./timeWindow";

describe("a maintenance window typed as two times", () => {
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

  it("write a minute back as HH:MM, so a stored window fills the fields", () => {
    expect(timeOfMinute(150)).toBe("02:30");
    expect(timeOfMinute(0)).toBe("00:00");
    expect(timeOfMinute(null)).toBe("");
    expect(windowOf(timeOfMinute(1380), timeOfMinute(150))).toEqual({ start: 1380, end: 150 });
  });
});
