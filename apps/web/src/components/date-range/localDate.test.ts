import { describe, expect, it } from "vitest";
import { dayShape, formatDay, parseDay } from "./localDate";

describe("days in the interface language (issue 11)", () => {
  it("writes and reads dd.mm.yyyy in Russian and mm/dd/yyyy in English", () => {
    expect(formatDay("2026-11-05", "ru")).toBe("05.11.2026");
    expect(formatDay("2026-11-05", "en")).toBe("11/05/2026");
    expect(parseDay("05.11.2026", "ru")).toBe("2026-11-05");
    expect(parseDay("5.11.2026", "ru")).toBe("2026-11-05");
    expect(parseDay("11/05/2026", "en")).toBe("2026-11-05");
    expect(dayShape("ru")).toBe("dd.mm.yyyy");
  });

  it("answers null for what is not yet, or never, a real day", () => {
    expect(parseDay("31.02.2026", "ru")).toBeNull();
    expect(parseDay("05.11.26", "ru")).toBeNull();
    expect(parseDay("05.11", "ru")).toBeNull();
    expect(parseDay("", "ru")).toBeNull();
    expect(formatDay("", "ru")).toBe("");
  });
});
