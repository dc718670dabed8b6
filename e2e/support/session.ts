import { type BrowserContext, expect, type Page } from "@playwright/test";

/** Makes the console speak English in this context, so tests can find texts by their English names. */
export async function useEnglish(context: BrowserContext, baseURL: string): Promise<void> {
  await context.addCookies([
    { name: "version", value: "1", url: baseURL },
    { name: "locale", value: "en", url: baseURL },
  ]);
}

/** Signs in through the login form. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel(/username/i).fill(username);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole("button", { name: /^sign in$/i }).click();
}

/** Opens the toolbar's user menu. */
export async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole("button", { name: /user menu/i }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}
