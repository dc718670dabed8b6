// The console opens in the browser's language (issue 27): a browser asking for English gets English
// before anyone chose; one asking for neither language gets the spec's default, Russian; a choice made
// in the console (its cookie) wins over the browser.
import { expect, test } from "@playwright/test";

test.describe("a browser that asks for English", () => {
  test.use({ locale: "en-GB" });

  test("opens the sign-in page in English", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });

  test("keeps Russian once a person chose it", async ({ page, context, baseURL }) => {
    await context.addCookies([
      { name: "version", value: "1", url: baseURL as string },
      { name: "locale", value: "ru", url: baseURL as string },
    ]);
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  });
});

test.describe("a browser that asks for neither language", () => {
  test.use({ locale: "de-DE" });

  test("opens in the spec's default language, Russian", async ({ page }) => {
    await page.goto("/login");
    await expect(page.locator("html")).toHaveAttribute("lang", "ru");
  });
});
