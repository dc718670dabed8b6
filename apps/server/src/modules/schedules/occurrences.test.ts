import type { ScheduleRegular, ScheduleWeek } from "@cellfleet/contract";
import { describe, expect, it } from "vitest";
import { nextOccurrence, occurrencesBetween } from "./occurrences";

// The occurrences of every rule shape over a whole year, checked against an oracle that knows no
// luxon: the calendar from Date.UTC arithmetic, the wall clock from Intl.DateTimeFormat.

const YEAR_START = new Date("2026-01-01T00:00:00Z");
const YEAR_END = new Date("2027-01-01T00:00:00Z");
const ZONES = ["Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata"];

function daily(time: string): ScheduleRegular {
  return { basic: "daily", options: { weeks: [], days: [] }, time };
}
function weekly(days: number[], weeks: ScheduleWeek[], time: string): ScheduleRegular {
  return { basic: "weekly", options: { weeks, days }, time };
}

/** An instant's local date and time in a zone, by Intl. */
function wallClock(instant: Date, zone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}` };
}

/** The local dates of 2026 a rule fires on, by plain calendar arithmetic. */
function expectedDates(regular: ScheduleRegular): string[] {
  const dates: string[] = [];
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
    const day = new Date(t);
    const isoWeekday = day.getUTCDay() === 0 ? 7 : day.getUTCDay();
    const dom = day.getUTCDate();
    const daysInMonth = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0)).getUTCDate();
    let fires = true;
    if (regular.basic === "weekly") {
      const { weeks, days } = regular.options;
      const inWeek =
        weeks.length === 0 ||
        (weeks.includes("last") && dom > daysInMonth - 7) ||
        weeks.some((week) => week !== "last" && dom >= 7 * week - 6 && dom <= 7 * week);
      fires = days.includes(isoWeekday) && inWeek;
    }
    if (fires) dates.push(day.toISOString().slice(0, 10));
  }
  return dates;
}

const SHAPES: Array<[string, ScheduleRegular]> = [
  ["daily at 03:00", daily("03:00")],
  ["daily at 00:00", daily("00:00")],
  ["daily at 23:59", daily("23:59")],
  ["every Monday", weekly([1], [], "04:15")],
  ["Monday, Wednesday and Friday", weekly([1, 3, 5], [], "12:00")],
  ["weekends", weekly([6, 7], [], "22:30")],
  ["the first Monday", weekly([1], [1], "05:00")],
  ["the 2nd and 3rd Tuesday", weekly([2], [2, 3], "06:45")],
  ["the 4th Monday", weekly([1], [4], "01:00")],
  ["the last Monday", weekly([1], ["last"], "02:00")],
  ["the last Sunday", weekly([7], ["last"], "02:30")],
  ["the 1st and last Friday", weekly([5], [1, "last"], "18:00")],
  ["every day of the 1st–4th weeks", weekly([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 4], "09:00")],
];

describe("nextOccurrence over 2026", () => {
  for (const zone of ZONES) {
    for (const [label, regular] of SHAPES) {
      it(`${label} in ${zone}: the right dates, each once, at the time (or just past a gap)`, () => {
        // Two days' margin either side of the UTC year, then the occurrences whose local date is in 2026.
        const found = occurrencesBetween(
          regular,
          zone,
          new Date("2025-12-30T00:00:00Z"),
          new Date("2027-01-02T00:00:00Z"),
        ).filter((instant) => wallClock(instant, zone).date.startsWith("2026"));
        const all = found.map((instant) => wallClock(instant, zone));
        expect(all.map((wall) => wall.date)).toEqual(expectedDates(regular));
        for (const wall of all) {
          if (wall.time !== regular.time) {
            // Only the spring-forward gap moves a time: 02:xx becomes 03:xx.
            expect(regular.time.startsWith("02:")).toBe(true);
            expect(wall.time).toBe(`03:${regular.time.slice(3)}`);
          }
        }
        const times = found.map((instant) => instant.getTime());
        expect(times).toEqual([...new Set(times)].sort((a, b) => a - b));
      });
    }
  }
});

describe("daylight-saving changes", () => {
  it("Berlin, 02:30 on the spring-forward day fires at 03:30 CEST, once", () => {
    const found = occurrencesBetween(
      daily("02:30"),
      "Europe/Berlin",
      new Date("2026-03-28T00:00:00Z"),
      new Date("2026-03-31T00:00:00Z"),
    );
    expect(found.map((d) => d.toISOString())).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:30:00.000Z", // no 02:30 that day: 03:30 CEST
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
  });

  it("Berlin, 02:30 on the fall-back day fires once, at the first 02:30 (CEST)", () => {
    const found = occurrencesBetween(
      daily("02:30"),
      "Europe/Berlin",
      new Date("2026-10-24T00:00:00Z"),
      new Date("2026-10-27T00:00:00Z"),
    );
    expect(found.map((d) => d.toISOString())).toEqual([
      "2026-10-24T00:30:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
    ]);
  });

  it("New York, 03:00 keeps its wall time across both changes (UTC hour moves 8 → 7 → 8)", () => {
    const hours = (from: string, to: string) =>
      occurrencesBetween(daily("03:00"), "America/New_York", new Date(from), new Date(to)).map((d) =>
        d.getUTCHours(),
      );
    expect(hours("2026-03-07T00:00:00Z", "2026-03-10T00:00:00Z")).toEqual([8, 7, 7]);
    expect(hours("2026-10-31T00:00:00Z", "2026-11-03T00:00:00Z")).toEqual([7, 8, 8]);
  });

  it("New York, 02:30 on 8 March 2026 fires at 03:30 EDT; 01:30 on 1 November once, at EDT", () => {
    expect(
      nextOccurrence(daily("02:30"), "America/New_York", new Date("2026-03-08T05:00:00Z"))?.toISOString(),
    ).toBe("2026-03-08T07:30:00.000Z");
    const fallBack = occurrencesBetween(
      daily("01:30"),
      "America/New_York",
      new Date("2026-11-01T04:00:00Z"),
      new Date("2026-11-02T04:00:00Z"),
    );
    expect(fallBack.map((d) => d.toISOString())).toEqual(["2026-11-01T05:30:00.000Z"]);
  });

  it("a firing just done on the repeated hour does not fire again at its second showing", () => {
    const first = new Date("2026-10-25T00:30:00.000Z");
    expect(nextOccurrence(daily("02:30"), "Europe/Berlin", first)?.toISOString()).toBe(
      "2026-10-26T01:30:00.000Z",
    );
  });
});

describe("weeks of the month", () => {
  it("March 2026 has five Mondays: the 4th is the 23rd, the last the 30th", () => {
    const march = (weeks: ScheduleWeek[]) =>
      occurrencesBetween(
        weekly([1], weeks, "10:00"),
        "UTC",
        new Date("2026-03-01T00:00:00Z"),
        new Date("2026-04-01T00:00:00Z"),
      ).map((d) => d.getUTCDate());
    expect(march([4])).toEqual([23]);
    expect(march(["last"])).toEqual([30]);
    expect(march([1, 2, 3, 4])).toEqual([2, 9, 16, 23]);
    expect(march([])).toEqual([2, 9, 16, 23, 30]);
  });

  it("in a month of four Mondays the 4th Monday is also the last", () => {
    const feb = (weeks: ScheduleWeek[]) =>
      occurrencesBetween(
        weekly([1], weeks, "10:00"),
        "UTC",
        new Date("2026-02-01T00:00:00Z"),
        new Date("2026-03-01T00:00:00Z"),
      ).map((d) => d.getUTCDate());
    expect(feb([4])).toEqual([23]);
    expect(feb(["last"])).toEqual([23]);
    expect(feb([4, "last"])).toEqual([23]);
  });

  it("the last Monday of every month of 2026, in Berlin", () => {
    const found = occurrencesBetween(weekly([1], ["last"], "02:00"), "Europe/Berlin", YEAR_START, YEAR_END);
    expect(found.map((d) => wallClock(d, "Europe/Berlin").date)).toEqual([
      "2026-01-26",
      "2026-02-23",
      "2026-03-30",
      "2026-04-27",
      "2026-05-25",
      "2026-06-29",
      "2026-07-27",
      "2026-08-31",
      "2026-09-28",
      "2026-10-26",
      "2026-11-30",
      "2026-12-28",
    ]);
  });
});

describe("edges", () => {
  it("is strictly after the given instant and crosses the year", () => {
    const at = new Date("2026-12-31T03:00:00Z");
    expect(nextOccurrence(daily("03:00"), "UTC", at)?.toISOString()).toBe("2027-01-01T03:00:00.000Z");
    expect(nextOccurrence(daily("03:00"), "UTC", new Date(at.getTime() - 1))?.toISOString()).toBe(
      at.toISOString(),
    );
  });

  it("a weekly rule without days never fires; an unknown zone has no occurrence", () => {
    expect(nextOccurrence(weekly([], [], "03:00"), "UTC", YEAR_START)).toBeNull();
    expect(nextOccurrence(daily("03:00"), "Mars/Olympus", YEAR_START)).toBeNull();
  });
});
