import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  ERROR_TEXTS,
  errorText,
  formatMessage,
  formErrorText,
  isErrorCode,
  isValidationKey,
  LOCALES,
  NOTICE_KEYS,
  NOTICE_TEXTS,
  noticeText,
  resolveLocale,
  VALIDATION_KEYS,
  VALIDATION_TEXTS,
  validationText,
} from "./index";

const CYRILLIC = /[\u0400-\u04FF]/;

describe("error texts", () => {
  it.each(ERROR_CODES)("%s has non-empty ru and en texts", (code) => {
    for (const locale of LOCALES) expect(ERROR_TEXTS[locale][code].trim().length).toBeGreaterThan(0);
    expect(errorText(code, "ru")).toMatch(CYRILLIC);
    expect(errorText(code, "en")).not.toMatch(CYRILLIC);
  });

  it("has no text for codes that do not exist", () => {
    for (const locale of LOCALES)
      expect(Object.keys(ERROR_TEXTS[locale]).sort()).toEqual([...ERROR_CODES].sort());
  });

  it("answers the spec's wordings", () => {
    expect(errorText("ACCESS_DENIED", "en")).toBe("Access denied");
    expect(errorText("ACCESS_DENIED", "ru")).toBe("Доступ запрещён");
    expect(errorText("WRONG_LOGIN_OR_PASSWORD", "ru")).toBe("Неверный логин или пароль");
  });

  it("names the special symbols in the NO_SPECIAL_SYMBOLS text", () => {
    expect(errorText("PASSWORD_INVALID_NO_SPECIAL_SYMBOLS", "en")).toContain("% * ) ? @ # $ ~");
  });

  it("describes an unknown code and defaults to Russian", () => {
    expect(errorText("SOMETHING_NEW", "en")).toBe("Unknown error: SOMETHING_NEW");
    expect(errorText("SOMETHING_NEW", "ru")).toBe("Неизвестная ошибка: SOMETHING_NEW");
    expect(errorText("DEVICE_NOT_FOUND", "en")).not.toMatch(/^Unknown error/);
  });

  it("recognises error codes", () => {
    expect(isErrorCode("DEVICE_NOT_FOUND")).toBe(true);
    expect(isErrorCode("device_not_found")).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});

describe("validation texts", () => {
  it.each(VALIDATION_KEYS)("%s has non-empty ru and en texts", (key) => {
    for (const locale of LOCALES) expect(VALIDATION_TEXTS[locale][key].trim().length).toBeGreaterThan(0);
    expect(VALIDATION_TEXTS.ru[key]).toMatch(CYRILLIC);
    expect(VALIDATION_TEXTS.en[key]).not.toMatch(CYRILLIC);
  });

  it("answers the spec's wordings", () => {
    expect(validationText("usernameTooShort", "en")).toBe("4 or more characters");
    expect(validationText("tinDigits", "en")).toBe("TIN must contain 9 or more digits");
    expect(validationText("tinDigits", "ru")).toBe("ИНН должен содержать не менее 9 цифр");
    expect(validationText("passwordsDoNotMatch", "en")).toBe("Passwords do not match!");
    expect(validationText("copiesRange", "en")).toBe("Enter a value between 1 and 100");
  });

  it("names the file in the upload messages", () => {
    expect(validationText("tooLarge", "en", { name: "fw.bin" })).toBe(
      "The file fw.bin is too large: files of 25 MB or more are not accepted",
    );
    expect(validationText("tooLarge", "ru", { name: "fw.bin" })).toContain("Файл fw.bin слишком большой");
    expect(validationText("emptyFile", "ru")).toBe("Файл пуст");
  });

  it("formats whatever a validator answered, keys and error codes alike", () => {
    expect(formErrorText("required", "en")).toBe("Required field");
    expect(formErrorText("PASSWORD_INVALID_MIN_LENGTH", "en")).toBe("The password is too short");
    expect(isValidationKey("required")).toBe(true);
    expect(isValidationKey("REQUIRED")).toBe(false);
  });
});

describe("notice texts", () => {
  it.each(NOTICE_KEYS)("%s has non-empty ru and en texts", (key) => {
    for (const locale of LOCALES) expect(NOTICE_TEXTS[locale][key].trim().length).toBeGreaterThan(0);
    expect(NOTICE_TEXTS.ru[key]).toMatch(CYRILLIC);
  });

  it("fills placeholders", () => {
    expect(
      noticeText("fileUploadError", "en", { name: "a.bin", path: "/api/file/firmware", reason: "Too large" }),
    ).toBe("File upload error a.bin (/api/file/firmware): Too large");
    expect(noticeText("passwordExpiresSoon", "ru", { days: 3 })).toMatch(/: 3$/);
  });
});

describe("formatMessage", () => {
  it("fills every placeholder it has a value for", () => {
    expect(formatMessage("{a} and {b}", { a: 1, b: "two" })).toBe("1 and two");
  });

  it("drops missing placeholders with their brackets and stray spaces", () => {
    expect(formatMessage("File {name} is empty")).toBe("File is empty");
    expect(formatMessage("Error {name} ({path}): {reason}")).toBe("Error");
  });
});

describe("resolveLocale", () => {
  it("accepts ru and en in any form and defaults to ru", () => {
    expect(resolveLocale("en")).toBe("en");
    expect(resolveLocale("en-US")).toBe("en");
    expect(resolveLocale("RU")).toBe("ru");
    expect(resolveLocale("de")).toBe("ru");
    expect(resolveLocale(undefined)).toBe("ru");
  });
});
