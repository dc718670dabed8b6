import { describe, expect, it } from "vitest";
import { formatClock, formatMoment, formatNumber } from "./format";
import { i18n } from "./i18n";

const NBSP = "\u00a0";

describe("formatNumber", () => {
  it("groups digits by the language: a comma in English, a no-break space in Russian", () => {
    expect(formatNumber(100_000, "en")).toBe("100,000");
    expect(formatNumber(100_000, "ru")).toBe(`100${NBSP}000`);
    expect(formatNumber(1_234_567, "ru")).toBe(`1${NBSP}234${NBSP}567`);
    expect(formatNumber(999, "en")).toBe("999");
    expect(formatNumber(0, "ru")).toBe("0");
  });
});

describe("formatMoment", () => {
  it("writes a moment as toLocaleString does", () => {
    const ms = Date.UTC(2026, 10, 21, 15, 3, 7);
    for (const language of ["en", "ru"]) {
      expect(formatMoment(ms, language)).toBe(new Date(ms).toLocaleString(language));
    }
  });
});

describe("counts in the locale texts", () => {
  it("are formatted with formatNumber in the text's language", () => {
    expect(i18n.t("fleet.list.total", { count: 100_000, lng: "en" })).toBe("Found: 100,000");
    expect(i18n.t("fleet.list.total", { count: 100_000, lng: "ru" })).toBe(`Найдено: 100${NBSP}000`);
    expect(i18n.t("fleet.list.range", { from: 99_901, to: 100_000, total: 100_000, lng: "en" })).toBe(
      "99,901–100,000 of 100,000",
    );
    expect(i18n.t("fleet.list.range", { from: 1, to: 10, total: 70_000, lng: "ru" })).toBe(
      `1–10 из 70${NBSP}000`,
    );
  });
});

describe("formatClock (the time of day beside 'just now', issue 11)", () => {
  const now = new Date(2026, 10, 24, 15, 30).getTime();

  it("writes the time of day for a moment of the same day, so two recent times differ", () => {
    expect(formatClock(new Date(2026, 10, 24, 15, 12).getTime(), now, "ru")).toBe("15:12");
    expect(formatClock(new Date(2026, 10, 24, 15, 25).getTime(), now, "ru")).toBe("15:25");
    expect(formatClock(new Date(2026, 10, 24, 9, 5).getTime(), now, "en")).toMatch(/^09:05\s?AM$/);
  });

  it("adds the day and month for an earlier day, in the language's order", () => {
    expect(formatClock(new Date(2026, 10, 21, 8, 7).getTime(), now, "ru")).toBe("21.11, 08:07");
    expect(formatClock(new Date(2026, 10, 21, 8, 7).getTime(), now, "en")).toMatch(/^11\/21, 08:07\s?AM$/);
  });
});
