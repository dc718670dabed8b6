// Every accounting page renders in the four looks (desktop and mobile, light and dark, Russian and
// English): titled, loaded, no error. Each is saved for a person to look at (ADR 028).
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { LOOKS, sidewaysOverflow } from "../support/looks";
import { signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

async function useLocale(context: BrowserContext, baseURL: string, locale: string): Promise<void> {
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
}

/** A signed-in page that is titled, done loading and shows no error or missing object. */
async function expectRendered(page: Page): Promise<void> {
  await expect(page.getByTestId("page-title")).toBeVisible();
  await expect(page.getByTestId("query-pending")).toHaveCount(0);
  await expect(page.getByTestId("query-error")).toHaveCount(0);
  await expect(page.getByTestId("entity-missing")).toHaveCount(0);
}

/** The accounting lists, by path, with their tables' test ids. */
const LISTS: Record<string, string> = {
  "/domains": "domains-table",
  "/superusers": "superusers-table",
  "/users": "users-table",
};

for (const look of LOOKS) {
  test(`every accounting page renders, ${look.name}`, async ({ page, context, baseURL }) => {
    test.setTimeout(180_000);
    const base = baseURL as string;
    const snap = (name: string) => shot(page, `accounting-${look.name}-${name}`);
    await page.setViewportSize({ width: look.width, height: look.height });
    await useEnglish(context, base);
    await useLocale(context, base, look.locale);
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);

    // Signed out: registration, the forgotten-password form, the reset form.
    await page.goto("/registry");
    await expect(page.getByRole("textbox").first()).toBeVisible();
    await snap("registry");
    await page.goto("/login");
    await page.locator("button", { hasText: /forgot|забыли/i }).click();
    await expect(page.getByRole("textbox")).toHaveCount(1);
    await snap("forgot");
    await page.goto("/login?reset=");
    await expect(page.getByRole("textbox").first()).toBeVisible();
    await snap("reset");

    // Signed in as root (through the English form), then shown in the look's language.
    await useLocale(context, base, "en");
    await signInRoot(page);
    await useLocale(context, base, look.locale);
    await page.reload();
    await expect(page.getByTestId("hub-domains")).toBeVisible();
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
      await expectRendered(page);
      if (path === "/logs") await expect(page.getByTestId("logs-table")).toBeVisible();
      // The lists fit a phone: what has no room goes under each row's first cell.
      const list = LISTS[path];
      if (list) await expect.poll(() => sidewaysOverflow(page, list)).toBe(0);
      await snap(path.replaceAll("/", "_").slice(1));
    }
    await page.goto("/domains");
    await page.locator("table a").first().click();
    await expect(page).toHaveURL(/\/domain\/[^/]+$/);
    await expectRendered(page);
    await snap("domain");
    await page.locator("[data-testid=domain-admins] tbody tr").first().click();
    await expect(page).toHaveURL(/\/admins\/[^/]+$/);
    await expectRendered(page);
    await snap("domain-admin");
    await page.goto("/users");
    await page.locator("[data-testid=users-table] tbody tr").first().click();
    await expect(page).toHaveURL(/\/user\/[^/]+$/);
    await expectRendered(page);
    await snap("user");
  });
}
