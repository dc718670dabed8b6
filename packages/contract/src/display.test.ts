import { describe, expect, it } from "vitest";
import {
  enqueueInfoMessage,
  fileSizeParts,
  firmwareSeriesFromUrl,
  INFO_MESSAGE_PRIORITY,
  type InfoMessage,
  isPasswordExpiringSoon,
  passwordDaysLeft,
  relativeTimeLabel,
  roleColor,
} from "./index";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const NOW = 1_800_000_000_000;

describe("relativeTimeLabel", () => {
  it("says 'just now' under 30 minutes and for the future", () => {
    expect(relativeTimeLabel(NOW, NOW)).toEqual({ key: "justNow" });
    expect(relativeTimeLabel(NOW - (30 * MINUTE - 1), NOW)).toEqual({ key: "justNow" });
    expect(relativeTimeLabel(NOW + HOUR, NOW)).toEqual({ key: "justNow" });
  });

  it("counts minutes from 30 minutes up to an hour", () => {
    expect(relativeTimeLabel(NOW - 30 * MINUTE, NOW)).toEqual({ key: "minutesAgo", count: 30 });
    expect(relativeTimeLabel(NOW - (HOUR - 1), NOW)).toEqual({ key: "minutesAgo", count: 59 });
  });

  it("counts hours up to a day, then days", () => {
    expect(relativeTimeLabel(NOW - HOUR, NOW)).toEqual({ key: "hoursAgo", count: 1 });
    expect(relativeTimeLabel(NOW - (DAY - 1), NOW)).toEqual({ key: "hoursAgo", count: 23 });
    expect(relativeTimeLabel(NOW - DAY, NOW)).toEqual({ key: "daysAgo", count: 1 });
    expect(relativeTimeLabel(NOW - 40 * DAY, NOW)).toEqual({ key: "daysAgo", count: 40 });
  });
});

describe("roleColor", () => {
  it("gives each role its own colour and unknown roles the default", () => {
    const colours = [1, 2, 3, 4].map(roleColor);
    expect(colours).toEqual(["error", "warning", "info", "success"]);
    expect(new Set(colours).size).toBe(4);
    expect(roleColor(0)).toBe("default");
  });
});

describe("enqueueInfoMessage", () => {
  const message = (level: InfoMessage["level"], text: string = level): InfoMessage => ({ level, text });
  const critical = message("critical");
  const warning = message("warning");
  const info = message("info");
  const success = message("success");

  it("defines the priorities critical 1, warning 2, info and success 3", () => {
    expect(INFO_MESSAGE_PRIORITY).toEqual({ critical: 1, warning: 2, info: 3, success: 3 });
  });

  it("starts an empty queue with any message", () => {
    for (const entry of [critical, warning, info, success])
      expect(enqueueInfoMessage([], entry)).toEqual([entry]);
  });

  it("lets critical replace everything, another critical included", () => {
    expect(enqueueInfoMessage([info, warning, success], critical)).toEqual([critical]);
    const second = message("critical", "second");
    expect(enqueueInfoMessage([critical, info], second)).toEqual([second]);
  });

  it("lets warning replace a queue without a critical (priority above 1)", () => {
    expect(enqueueInfoMessage([info, success], warning)).toEqual([warning]);
    const second = message("warning", "second");
    expect(enqueueInfoMessage([warning, info], second)).toEqual([second]);
  });

  it("queues a warning behind a critical instead of replacing it", () => {
    expect(enqueueInfoMessage([critical], warning)).toEqual([critical, warning]);
    expect(enqueueInfoMessage([critical, info], warning)).toEqual([critical, info, warning]);
  });

  it("appends info and success", () => {
    expect(enqueueInfoMessage([critical], info)).toEqual([critical, info]);
    expect(enqueueInfoMessage([warning, info], success)).toEqual([warning, info, success]);
  });

  it("leaves the old queue untouched", () => {
    const queue = [info];
    enqueueInfoMessage(queue, success);
    enqueueInfoMessage(queue, critical);
    expect(queue).toEqual([info]);
  });
});

describe("password expiry", () => {
  it("warns when under 15 days remain or the password has expired", () => {
    expect(isPasswordExpiringSoon(NOW + 15 * DAY, NOW)).toBe(false);
    expect(isPasswordExpiringSoon(NOW + 15 * DAY - 1, NOW)).toBe(true);
    expect(isPasswordExpiringSoon(NOW - DAY, NOW)).toBe(true);
    expect(isPasswordExpiringSoon(null, NOW)).toBe(false);
  });

  it("counts whole days left", () => {
    expect(passwordDaysLeft(NOW + 15 * DAY - 1, NOW)).toBe(14);
    expect(passwordDaysLeft(NOW + DAY, NOW)).toBe(1);
    expect(passwordDaysLeft(null, NOW)).toBeNull();
  });
});

describe("fileSizeParts", () => {
  it("steps units by 1024 and rounds to one decimal", () => {
    expect(fileSizeParts(0)).toEqual({ value: 0, unit: "B" });
    expect(fileSizeParts(1023)).toEqual({ value: 1023, unit: "B" });
    expect(fileSizeParts(1024)).toEqual({ value: 1, unit: "KB" });
    expect(fileSizeParts(1536)).toEqual({ value: 1.5, unit: "KB" });
    expect(fileSizeParts(25 * 1024 * 1024)).toEqual({ value: 25, unit: "MB" });
    expect(fileSizeParts(3 * 1024 ** 3)).toEqual({ value: 3, unit: "GB" });
    expect(fileSizeParts(2048 * 1024 ** 4)).toEqual({ value: 2048, unit: "TB" });
  });
});

describe("firmwareSeriesFromUrl", () => {
  it("takes the text before the first underscore of the last segment", () => {
    expect(firmwareSeriesFromUrl("https://fw.example.com/releases/RX200_v1.2_full.bin")).toBe("RX200");
    expect(firmwareSeriesFromUrl("https://fw.example.com/RX200_v1.bin?token=a_b#x_y")).toBe("RX200");
    expect(firmwareSeriesFromUrl("https://fw.example.com/latest/RX300_fw/")).toBe("RX300");
  });

  it("answers null (shown N/A) without an underscore or text before it", () => {
    expect(firmwareSeriesFromUrl("https://fw.example.com/a_b/firmware.bin")).toBeNull();
    expect(firmwareSeriesFromUrl("https://fw.example.com/_v1.bin")).toBeNull();
    expect(firmwareSeriesFromUrl("")).toBeNull();
  });
});
