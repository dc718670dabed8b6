import { describe, expect, it } from "vitest";
import { localeFromBrowser } from "./browserLocale";

describe("localeFromBrowser", () => {
  it("takes the first language the browser asks for that the console speaks", () => {
    expect(localeFromBrowser(["en-US", "en"])).toBe("en");
    expect(localeFromBrowser(["de-DE", "en-GB", "ru"])).toBe("en");
    expect(localeFromBrowser(["ru-RU"])).toBe("ru");
    expect(localeFromBrowser(["uk", "RU"])).toBe("ru");
    expect(localeFromBrowser(["en_US"])).toBe("en");
  });

  it("answers null for a browser that asks for neither, so the spec's default stays", () => {
    expect(localeFromBrowser([])).toBeNull();
    expect(localeFromBrowser(["de", "fr-FR", "english"])).toBeNull();
  });
});
