// Every accounting page in four looks (desktop and mobile, light and dark, Russian and English),
// saved for a person to look at. Runs after z-accounting.spec.ts, whose domain, admin and users it shows.
import { expect, test } from "@playwright/test";
import { ROOT_NEW_PASSWORD } from "../support/accounts";
import { shot } from "../support/shots";

const VARIANTS = [
  { name: "desktop-light-en", width: 1400, height: 900, theme: "light", locale: "en" },
  { name: "desktop-dark-ru", width: 1400, height: 900, theme: "dark", locale: "ru" },
  { name: "mobile-light-ru", width: 390, height: 844, theme: "light", locale: "ru" },
  { name: "mobile-dark-en", width: 390, height: 844, theme: "dark", locale: "en" },
] as const;

for (const variant of VARIANTS) {
  test(`pages ${variant.name}`, async ({ page, context, baseURL }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addCookies([
      { name: "version", value: "1", url: baseURL as string },
      { name: "locale", value: variant.locale, url: baseURL as string },
    ]);
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    const snap = async (name: string) => {
      await page.waitForTimeout(700);
      await shot(page, `accounting-${variant.name}-${name}`);
    };
    await page.goto("/registry");
    await snap("registry");
    await page.goto("/login");
    await page.locator("button", { hasText: /forgot|забыли/i }).click();
    await snap("forgot");
    await page.goto("/login?reset=");
    await snap("reset");

    await page.goto("/login");
    await page.locator("input[autocomplete=username]").fill("root");
    await page.locator("input[autocomplete=current-password]").fill(ROOT_NEW_PASSWORD);
    await page.locator("button[type=submit]").click();
    await expect(page).toHaveURL(/accounting/);
    await snap("hub");
    for (const path of [
      "/domains",
      "/domains/new",
      "/superusers",
      "/superuser/new",
      "/users",
      "/user/new",
      "/policies",
      "/policy/new",
      "/logs",
      "/jobs",
    ]) {
      await page.goto(path);
      if (path === "/logs") await page.waitForTimeout(1500);
      await snap(path.replaceAll("/", "_").slice(1));
    }
    await page.goto("/domains");
    await page.locator("table a").first().click();
    await snap("domain");
    await page.locator("[data-testid=domain-admins] tbody tr").first().click();
    await snap("domain-admin");
    await page.goto("/users");
    await page.locator("[data-testid=users-table] tbody tr").first().click();
    await snap("user");
  });
}
