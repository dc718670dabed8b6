import { describe, expect, it } from "vitest";
import {
  DEVICE_IDENT_MAX_LENGTH,
  DEVICE_IDENT_MIN_LENGTH,
  DeviceIdentSchema,
  DeviceKeySchema,
  HexKeySchema,
  TagSchema,
  TEXT_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  UsernameSchema,
  validateDeviceIdent,
  validateHexKey,
  validateRequired,
  validateSearch,
  validateTag,
  validateText,
  validateUsername,
} from "./index";

describe("validateRequired", () => {
  it("rejects empty, whitespace-only and missing values", () => {
    expect(validateRequired("")).toBe("required");
    expect(validateRequired("  \t\n")).toBe("required");
    expect(validateRequired(null)).toBe("required");
    expect(validateRequired(undefined)).toBe("required");
  });

  it("accepts one character", () => {
    expect(validateRequired("a")).toBeNull();
    expect(validateRequired(" a ")).toBeNull();
  });
});

describe("validateText", () => {
  it("needs at least one character and at most TEXT_MAX_LENGTH", () => {
    expect(validateText(" ")).toBe("required");
    expect(validateText("x")).toBeNull();
    expect(validateText("x".repeat(TEXT_MAX_LENGTH))).toBeNull();
    expect(validateText("x".repeat(TEXT_MAX_LENGTH + 1))).toBe("textTooLong");
  });
});

describe("validateUsername", () => {
  it("follows the 'longer than 3' reading: 4 or more characters", () => {
    expect(USERNAME_MIN_LENGTH).toBe(4);
    expect(validateUsername("abcd")).toBeNull();
  });

  it("rejects 3 characters, which the other reading ('at least 3') would accept", () => {
    expect(validateUsername("abc")).toBe("usernameTooShort");
    expect(validateUsername("  abc  ")).toBe("usernameTooShort");
  });

  it("is required", () => {
    expect(validateUsername("   ")).toBe("required");
    expect(validateUsername(null)).toBe("required");
  });

  it("caps the length", () => {
    expect(validateUsername("u".repeat(256))).toBe("textTooLong");
  });
});

describe("validateTag", () => {
  it("rejects 2 characters and accepts 3, Latin and Cyrillic", () => {
    expect(validateTag("ab")).toBe("tagTooShort");
    expect(validateTag("аб")).toBe("tagTooShort");
    expect(validateTag("abc")).toBeNull();
    expect(validateTag("абв")).toBeNull();
  });

  it("accepts 25 characters and rejects 26, Latin and Cyrillic", () => {
    expect(validateTag("a".repeat(25))).toBeNull();
    expect(validateTag("я".repeat(25))).toBeNull();
    expect(validateTag("a".repeat(26))).toBe("tagTooLong");
    expect(validateTag("я".repeat(26))).toBe("tagTooLong");
  });

  it("accepts letters, digits, _ and - mixed, including Ё and ё", () => {
    expect(validateTag("Склад_2-Ёлка")).toBeNull();
    expect(validateTag("site-42_ёж")).toBeNull();
  });

  it("rejects spaces, punctuation and other scripts", () => {
    for (const tag of ["two words", "tag!", "a.b.c", "tag@x", "ελλάδα", "标签标签"]) {
      expect(validateTag(tag)).toBe("tagChars");
    }
  });

  it("is required", () => {
    expect(validateTag("")).toBe("required");
  });

  it("has a zod schema with the key as the message", () => {
    expect(TagSchema.parse("  склад  ")).toBe("склад");
    const result = TagSchema.safeParse("ab");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("tagTooShort");
  });
});

describe("validateSearch", () => {
  it("accepts the spec's characters: letters, digits, _, -, @ and =", () => {
    expect(validateSearch("router_1-a@b=c")).toBeNull();
    expect(validateSearch("Маршрутизатор")).toBeNull();
  });

  it("accepts our additions: spaces and dots", () => {
    expect(validateSearch("Иван Петров")).toBeNull();
    expect(validateSearch("admin@example.com")).toBeNull();
    expect(validateSearch("10.0.0.1")).toBeNull();
  });

  it("accepts an empty search", () => {
    expect(validateSearch("")).toBeNull();
    expect(validateSearch(undefined)).toBeNull();
  });

  it("rejects other symbols", () => {
    for (const text of ["a;b", "<script>", "50%", "a*b", "(x)", "a/b"]) {
      expect(validateSearch(text)).toBe("searchChars");
    }
  });
});

describe("validateDeviceIdent", () => {
  it("accepts Latin letters and digits within the bounds", () => {
    expect(validateDeviceIdent("a".repeat(DEVICE_IDENT_MIN_LENGTH))).toBeNull();
    expect(validateDeviceIdent("Router42")).toBeNull();
    expect(validateDeviceIdent("9".repeat(DEVICE_IDENT_MAX_LENGTH))).toBeNull();
  });

  it("rejects too short and too long identifiers", () => {
    expect(DEVICE_IDENT_MIN_LENGTH).toBe(4);
    expect(DEVICE_IDENT_MAX_LENGTH).toBe(64);
    expect(validateDeviceIdent("abc")).toBe("identTooShort");
    expect(validateDeviceIdent("a".repeat(65))).toBe("identTooLong");
  });

  it("rejects separators and non-Latin letters", () => {
    for (const ident of ["rt-0001", "rt_0001", "rt 0001", "rt.0001", "rt:01:02", "роутер01"]) {
      expect(validateDeviceIdent(ident)).toBe("identChars");
    }
  });

  it("is required", () => {
    expect(validateDeviceIdent("  ")).toBe("required");
    expect(DeviceIdentSchema.safeParse("").error?.issues[0]?.message).toBe("required");
  });
});

describe("validateHexKey", () => {
  const lower = "0123456789abcdef".repeat(4);
  const upper = lower.toUpperCase();

  it("accepts exactly 64 hex characters in lower and upper case", () => {
    expect(lower).toHaveLength(64);
    expect(validateHexKey(lower)).toBeNull();
    expect(validateHexKey(upper)).toBeNull();
  });

  it("rejects 63 and 65 characters, in lower and upper case", () => {
    expect(validateHexKey(lower.slice(1))).toBe("keyInvalid");
    expect(validateHexKey(upper.slice(1))).toBe("keyInvalid");
    expect(validateHexKey(`${lower}a`)).toBe("keyInvalid");
    expect(validateHexKey(`${upper}A`)).toBe("keyInvalid");
  });

  it("rejects non-hex characters", () => {
    expect(validateHexKey(`${lower.slice(1)}g`)).toBe("keyInvalid");
    expect(validateHexKey(`${lower.slice(2)}--`)).toBe("keyInvalid");
  });

  it("allows an empty key only when asked (devices)", () => {
    expect(validateHexKey("")).toBe("required");
    expect(validateHexKey("", { allowEmpty: true })).toBeNull();
    expect(validateHexKey(lower.slice(1), { allowEmpty: true })).toBe("keyInvalid");
  });

  it("has schemas for licence keys and device keys", () => {
    expect(HexKeySchema.safeParse("").success).toBe(false);
    expect(DeviceKeySchema.safeParse("").success).toBe(true);
    expect(DeviceKeySchema.parse(` ${upper} `)).toBe(upper);
    expect(HexKeySchema.safeParse(lower.slice(1)).error?.issues[0]?.message).toBe("keyInvalid");
  });

  it("exposes the username schema with its key", () => {
    expect(UsernameSchema.safeParse("abc").error?.issues[0]?.message).toBe("usernameTooShort");
  });
});
