import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readCookie, resetCookiesUnlessVersion, writeCookie } from "./cookies";

function clearCookies(): void {
  for (const part of document.cookie.split(";")) {
    const name = part.trim().split("=")[0];
    // biome-ignore lint/suspicious/noDocumentCookie: test cleanup
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
}

describe("resetCookiesUnlessVersion", () => {
  // The test setup starts i18n, which has already written the version cookie.
  beforeEach(clearCookies);
  afterEach(clearCookies);

  it("drops every cookie and writes the version when the version cookie is absent", () => {
    writeCookie("locale", "en");
    expect(resetCookiesUnlessVersion("1")).toBe(true);
    expect(readCookie("locale")).toBeNull();
    expect(readCookie("version")).toBe("1");
  });

  it("keeps cookies when the version matches", () => {
    writeCookie("version", "1");
    writeCookie("locale", "en");
    expect(resetCookiesUnlessVersion("1")).toBe(false);
    expect(readCookie("locale")).toBe("en");
  });

  it("drops cookies of another version", () => {
    writeCookie("version", "0");
    writeCookie("locale", "en");
    expect(resetCookiesUnlessVersion("1")).toBe(true);
    expect(readCookie("locale")).toBeNull();
    expect(readCookie("version")).toBe("1");
  });
});
