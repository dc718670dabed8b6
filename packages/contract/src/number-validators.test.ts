import { describe, expect, it } from "vitest";
import {
  CheckDelaySchema,
  CopiesSchema,
  DEFAULT_REMOTE_ACCESS,
  IntegerCountSchema,
  PortSchema,
  REMOTE_ACCESS_LIMIT_RANGES,
  type RemoteAccessLimit,
  RemoteAccessSettingsSchema,
  StatusMinutesSchema,
  validateCheckDelay,
  validateCopies,
  validateIntegerCount,
  validatePort,
  validateRemoteAccessLimit,
  validateStatusMinutes,
  validateStatusThresholds,
} from "./index";

describe("validateCopies", () => {
  it("accepts 1 and 100, rejects 0 and 101", () => {
    expect(validateCopies(0)).toBe("copiesRange");
    expect(validateCopies(1)).toBeNull();
    expect(validateCopies(100)).toBeNull();
    expect(validateCopies(101)).toBe("copiesRange");
  });

  it("takes form text too", () => {
    expect(validateCopies("1")).toBeNull();
    expect(validateCopies(" 100 ")).toBeNull();
    expect(validateCopies("101")).toBe("copiesRange");
    expect(validateCopies("2.5")).toBe("copiesRange");
    expect(validateCopies(2.5)).toBe("copiesRange");
    expect(validateCopies("")).toBe("required");
  });

  it("has a schema with the key as the message", () => {
    expect(CopiesSchema.safeParse(0).error?.issues[0]?.message).toBe("copiesRange");
    expect(CopiesSchema.safeParse(101).error?.issues[0]?.message).toBe("copiesRange");
    expect(CopiesSchema.parse(100)).toBe(100);
  });
});

describe("validateIntegerCount", () => {
  it("rejects 1, accepts 2 and 100000, rejects 100001", () => {
    expect(validateIntegerCount(1)).toBe("countRange");
    expect(validateIntegerCount(2)).toBeNull();
    expect(validateIntegerCount(100_000)).toBeNull();
    expect(validateIntegerCount(100_001)).toBe("countRange");
  });

  it("rejects fractions and text", () => {
    expect(validateIntegerCount(2.5)).toBe("countRange");
    expect(validateIntegerCount("1e3")).toBe("countRange");
    expect(validateIntegerCount("ten")).toBe("countRange");
    expect(validateIntegerCount("100000")).toBeNull();
    expect(IntegerCountSchema.safeParse(1).success).toBe(false);
    expect(IntegerCountSchema.safeParse(2).success).toBe(true);
  });
});

describe("validatePort", () => {
  it("rejects -1 and 65536, accepts 0 and 65535", () => {
    expect(validatePort(-1)).toBe("portRange");
    expect(validatePort(0)).toBeNull();
    expect(validatePort(65535)).toBeNull();
    expect(validatePort(65536)).toBe("portRange");
  });

  it("takes form text and rejects fractions", () => {
    expect(validatePort("-1")).toBe("portRange");
    expect(validatePort("443")).toBeNull();
    expect(validatePort("443.5")).toBe("portRange");
    expect(validatePort(null)).toBe("required");
    expect(PortSchema.safeParse(65536).error?.issues[0]?.message).toBe("portRange");
    expect(PortSchema.safeParse(0).success).toBe(true);
  });
});

describe("validateStatusMinutes", () => {
  it("rejects 14 and 10081, accepts 15 and 10080", () => {
    expect(validateStatusMinutes(14)).toBe("statusMinutesRange");
    expect(validateStatusMinutes(15)).toBeNull();
    expect(validateStatusMinutes(10080)).toBeNull();
    expect(validateStatusMinutes(10081)).toBe("statusMinutesRange");
  });

  it("is a required integer", () => {
    expect(validateStatusMinutes("")).toBe("required");
    expect(validateStatusMinutes("15.5")).toBe("statusMinutesRange");
    expect(validateStatusMinutes("30")).toBeNull();
  });

  it("may not be above the previous status's value (equal is fine)", () => {
    expect(validateStatusMinutes(30, 60)).toBeNull();
    expect(validateStatusMinutes(60, 60)).toBeNull();
    expect(validateStatusMinutes(61, 60)).toBe("statusMinutesAbovePrevious");
    expect(validateStatusMinutes(61, null)).toBeNull();
  });

  it("reports the range before the order", () => {
    expect(validateStatusMinutes(10081, 60)).toBe("statusMinutesRange");
  });

  it("has a range-only schema", () => {
    expect(StatusMinutesSchema.safeParse(14).error?.issues[0]?.message).toBe("statusMinutesRange");
    expect(StatusMinutesSchema.safeParse(10080).success).toBe(true);
  });
});

describe("validateStatusThresholds", () => {
  it("accepts online at or below warning (warning precedes online in the form)", () => {
    expect(
      validateStatusThresholds([
        { name: "online", minutes: 30 },
        { name: "warning", minutes: 60 },
      ]),
    ).toEqual([null, null]);
    expect(
      validateStatusThresholds([
        { name: "warning", minutes: 15 },
        { name: "online", minutes: 15 },
      ]),
    ).toEqual([null, null]);
  });

  it("flags online when it is above warning", () => {
    expect(
      validateStatusThresholds([
        { name: "online", minutes: 60 },
        { name: "warning", minutes: 30 },
      ]),
    ).toEqual(["statusMinutesAbovePrevious", null]);
  });

  it("reports each row's own range error and does not compare with an invalid previous value", () => {
    expect(
      validateStatusThresholds([
        { name: "online", minutes: 14 },
        { name: "warning", minutes: 10081 },
      ]),
    ).toEqual(["statusMinutesRange", "statusMinutesRange"]);
    expect(
      validateStatusThresholds([
        { name: "online", minutes: 500 },
        { name: "warning", minutes: "" },
      ]),
    ).toEqual([null, "required"]);
  });

  it("judges a single status on its range alone", () => {
    expect(validateStatusThresholds([{ name: "online", minutes: 10080 }])).toEqual([null]);
  });
});

describe("validateCheckDelay", () => {
  it("accepts positive integers without a leading zero", () => {
    expect(validateCheckDelay("1")).toBeNull();
    expect(validateCheckDelay("10")).toBeNull();
    expect(validateCheckDelay(" 24 ")).toBeNull();
    expect(validateCheckDelay(5)).toBeNull();
  });

  it("rejects zero, leading zeros, signs and fractions", () => {
    for (const value of ["0", "01", "-1", "+1", "1.5", "1e3", "abc", 0, -1, 1.5]) {
      expect(validateCheckDelay(value)).toBe("checkDelayInvalid");
    }
  });

  it("is required", () => {
    expect(validateCheckDelay("")).toBe("required");
    expect(validateCheckDelay(undefined)).toBe("required");
  });

  it("has a schema for the JSON number", () => {
    expect(CheckDelaySchema.safeParse(0).error?.issues[0]?.message).toBe("checkDelayInvalid");
    expect(CheckDelaySchema.safeParse(1.5).success).toBe(false);
    expect(CheckDelaySchema.parse(10)).toBe(10);
  });
});

describe("validateRemoteAccessLimit", () => {
  it("takes each limit's range from REMOTE_ACCESS_LIMIT_RANGES, as the settings' schema does", () => {
    for (const [name, range] of Object.entries(REMOTE_ACCESS_LIMIT_RANGES) as [
      RemoteAccessLimit,
      { min: number; max: number },
    ][]) {
      expect(validateRemoteAccessLimit(name, range.min)).toBeNull();
      expect(validateRemoteAccessLimit(name, String(range.max))).toBeNull();
      expect(validateRemoteAccessLimit(name, range.min - 1)).not.toBeNull();
      expect(validateRemoteAccessLimit(name, range.max + 1)).not.toBeNull();
      const limits = { ...DEFAULT_REMOTE_ACCESS, [name]: range.max + 1 };
      expect(RemoteAccessSettingsSchema.safeParse(limits).success).toBe(false);
    }
    expect(validateRemoteAccessLimit("idle_minutes", "")).toBe("required");
    expect(validateRemoteAccessLimit("idle_minutes", "0")).toBe("idleMinutesRange");
    expect(validateRemoteAccessLimit("bandwidth_kib", "7")).toBe("bandwidthRange");
    expect(validateRemoteAccessLimit("quota_mib", "1.5")).toBe("quotaRange");
  });
});
