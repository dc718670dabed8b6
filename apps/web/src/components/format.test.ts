import { beforeAll, describe, expect, it } from "vitest";
import { setLocale } from "../app/i18n";
import { formatBytes, formatDecibels, formatDuration, orDash } from "./format";

describe("device page formats", () => {
  beforeAll(() => setLocale("en"));

  it("formats bytes in 1024 steps", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(5 * 1024 * 1024)).toBe("5 MB");
  });

  it("formats durations", () => {
    expect(formatDuration(42)).toBe("42s");
    expect(formatDuration(3600)).toBe("1h 0m");
    expect(formatDuration(90_061)).toBe("1d 1h 1m");
  });

  it("writes units and decimals in Russian when the interface is Russian (issue 11)", () => {
    expect(formatBytes(1536, "ru")).toBe("1,5 КБ");
    expect(formatBytes(1500 * 1024 * 1024, "ru")).toBe(`1,5 ГБ`);
    expect(formatDuration(90_061, "ru")).toBe("1д 1ч 1м");
    expect(formatDuration(42, "ru")).toBe("42с");
  });

  it("writes radio levels with the language's decimal mark and units", () => {
    expect(formatDecibels(-98.4, "dBm", { language: "ru" })).toBe("-98,4 дБм");
    expect(formatDecibels(-15, "dB", { signed: true, language: "ru" })).toBe("-15 дБ");
    expect(formatDecibels(3, "dB", { signed: true, language: "en" })).toBe("+3 dB");
    expect(formatDecibels(-98.4, "dBm", { language: "en" })).toBe("-98.4 dBm");
  });

  it("shows a dash for missing values only", () => {
    expect(orDash(null)).toBe("—");
    expect(orDash("")).toBe("—");
    expect(orDash(0)).toBe("0");
  });
});
