import { describe, expect, it } from "vitest";
import {
  allowEmpty,
  EmailListSchema,
  EmailSchema,
  PhoneSchema,
  parseEmailList,
  TinSchema,
  validateEmail,
  validateEmailList,
  validatePhone,
  validateTin,
} from "./index";

describe("validateTin", () => {
  it("rejects 99999999 and accepts 100000000", () => {
    expect(validateTin("99999999")).toBe("tinDigits");
    expect(validateTin("100000000")).toBeNull();
    expect(validateTin(99_999_999)).toBe("tinDigits");
    expect(validateTin(100_000_000)).toBeNull();
  });

  it("accepts the usual 10- and 12-digit TINs", () => {
    expect(validateTin("7707083893")).toBeNull();
    expect(validateTin("500100732259")).toBeNull();
  });

  it("judges the value, so leading zeros do not count as digits", () => {
    expect(validateTin("000000123")).toBe("tinDigits");
  });

  it("rejects anything but digits", () => {
    for (const tin of ["1234567890a", "123 456 789", "-100000000", "1e9", "100000000.5"]) {
      expect(validateTin(tin)).toBe("tinDigits");
    }
  });

  it("is required", () => {
    expect(validateTin("")).toBe("required");
    expect(TinSchema.safeParse("99999999").error?.issues[0]?.message).toBe("tinDigits");
  });
});

describe("validatePhone", () => {
  it("accepts 24 characters and rejects 25", () => {
    const phone24 = "+7 (912) 345-67-89-00-11";
    expect(phone24).toHaveLength(24);
    expect(validatePhone(phone24)).toBeNull();
    expect(validatePhone(`${phone24}2`)).toBe("phoneTooLong");
  });

  it("rejects 2 digits and accepts 3", () => {
    expect(validatePhone("12")).toBe("phoneInvalid");
    expect(validatePhone("123")).toBeNull();
    expect(validatePhone("+12")).toBe("phoneInvalid");
    expect(validatePhone("(1)-2")).toBe("phoneInvalid");
  });

  it("accepts a leading plus, dashes, spaces and parentheses", () => {
    expect(validatePhone("+79123456789")).toBeNull();
    expect(validatePhone("8-912-345-67-89")).toBeNull();
    expect(validatePhone("+7 (912) 345 67 89")).toBeNull();
    expect(validatePhone("(495)1234567")).toBeNull();
  });

  it("rejects a plus not at the start, letters, empty or nested parentheses", () => {
    for (const phone of [
      "7+9123456789",
      "++79123456789",
      "8912abc4567",
      "8 () 123",
      "8 ((912)) 345",
      "8 (912 345",
    ]) {
      expect(validatePhone(phone)).toBe("phoneInvalid");
    }
  });

  it("is required, and optional through allowEmpty", () => {
    expect(validatePhone("")).toBe("required");
    expect(allowEmpty(validatePhone)("")).toBeNull();
    expect(allowEmpty(validatePhone)(null)).toBeNull();
    expect(allowEmpty(validatePhone)("12")).toBe("phoneInvalid");
    expect(PhoneSchema.parse(" 123 ")).toBe("123");
  });
});

describe("validateEmail", () => {
  it("needs a lower-case TLD of two or more letters", () => {
    expect(validateEmail("a@b.c")).toBe("emailInvalid");
    expect(validateEmail("a@b.co")).toBeNull();
    expect(validateEmail("a@b.CO")).toBe("emailInvalid");
    expect(validateEmail("a@b.Co")).toBe("emailInvalid");
    expect(validateEmail("a@b.c0")).toBe("emailInvalid");
  });

  it("accepts letters, digits, - _ . before @ and dotted domains", () => {
    expect(validateEmail("ivan.petrov-1_x@mail.example.com")).toBeNull();
    expect(validateEmail("Admin@Example.org")).toBeNull();
  });

  it("rejects other characters, a missing @ or a missing domain", () => {
    for (const email of [
      "a+b@x.co",
      "a b@x.co",
      "ab.x.co",
      "a@.co",
      "@x.co",
      "a@x",
      "a@@x.co",
      "иван@x.co",
    ]) {
      expect(validateEmail(email)).toBe("emailInvalid");
    }
  });

  it("is required, optional through allowEmpty, and trimmed by its schema", () => {
    expect(validateEmail(" ")).toBe("required");
    expect(allowEmpty(validateEmail)(" ")).toBeNull();
    expect(EmailSchema.parse(" a@b.co ")).toBe("a@b.co");
  });
});

describe("cc and bcc lists", () => {
  it("splits on commas and semicolons and drops empty parts", () => {
    expect(parseEmailList("a@b.co, c@d.ru;e@f.org ;")).toEqual(["a@b.co", "c@d.ru", "e@f.org"]);
  });

  it("accepts valid lists and an empty one", () => {
    expect(validateEmailList("a@b.co")).toBeNull();
    expect(validateEmailList("a@b.co, c@d.ru; e@f.org")).toBeNull();
    expect(validateEmailList("")).toBeNull();
    expect(validateEmailList(null)).toBeNull();
  });

  it("rejects a list with any invalid address", () => {
    expect(validateEmailList("a@b.co, c@d.c")).toBe("emailListInvalid");
    expect(validateEmailList("a@b.co c@d.ru")).toBe("emailListInvalid");
    expect(validateEmailList("a@b.CO")).toBe("emailListInvalid");
    expect(EmailListSchema.safeParse("x").error?.issues[0]?.message).toBe("emailListInvalid");
  });
});
