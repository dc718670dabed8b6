import { describe, expect, it } from "vitest";
import { i18n, setLocale } from "../app/i18n";
import { roleText } from "./roleText";

describe("roleText (issue 11: the junior assistant looked like any assistant)", () => {
  it("names a junior assistant apart from an assistant, in both languages", () => {
    setLocale("en");
    expect(roleText(i18n.t, { role: 3, is_junior: true })).toBe("Junior assistant");
    expect(roleText(i18n.t, { role: 3, is_junior: false })).toBe("Assistant");
    setLocale("ru");
    expect(roleText(i18n.t, { role: 3, is_junior: true })).toBe("Младший ассистент");
    expect(roleText(i18n.t, { role: 2, is_junior: false })).toBe(i18n.t("roles.admin"));
  });
});
