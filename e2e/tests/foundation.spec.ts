// The console's foundation: the demo user, language and theme switches, an operator kept out of
// admin pages. Root's first sign-in (the factory password) is the setup project's (first-run.setup.ts).
import { expect, test } from "@playwright/test";
import { OPERATOR } from "../support/accounts";
import { openUserMenu, signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.beforeEach(async ({ context, baseURL }) => {
  await useEnglish(context, baseURL as string);
});

test("/demo lands on /dashboard and a save is refused", async ({ page }) => {
  await page.goto("/demo");
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("user-caption")).toContainText(/demo/i);
  await shot(page, "04-demo-dashboard");

  await page.goto("/profile");
  await page.getByLabel(/full name/i).fill("Someone Else");
  await page.getByRole("button", { name: /^save$/i }).click();
  await expect(page.getByTestId("info-message")).toContainText(/demo/i);
  await expect(page).toHaveURL(/\/profile$/);
  await shot(page, "05-demo-save-refused");

  // Nothing was saved.
  await page.reload();
  await expect(page.getByLabel(/full name/i)).not.toHaveValue("Someone Else");
});

test("switching language changes the texts and is kept in the locale cookie", async ({ page, context }) => {
  await page.goto("/demo");
  await expect(page).toHaveURL(/\/dashboard$/);
  const englishTitle = (await page.getByTestId("page-title").textContent()) ?? "";
  expect(englishTitle).toMatch(/dashboard/i);

  await openUserMenu(page);
  await page.getByTestId("toggle-language").click();
  await expect(page.getByTestId("page-title")).not.toHaveText(englishTitle);
  await expect(page.getByTestId("page-title")).toHaveText(/[А-Яа-яЁё]/);
  const cookies = await context.cookies();
  expect(cookies.find((cookie) => cookie.name === "locale")?.value).toBe("ru");
  await shot(page, "06-dashboard-russian");

  await page.reload();
  await expect(page.getByTestId("page-title")).toHaveText(/[А-Яа-яЁё]/);
});

test("switching theme changes the colours and is remembered", async ({ page }) => {
  await page.goto("/demo");
  await expect(page).toHaveURL(/\/dashboard$/);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await background();
  await shot(page, "07-theme-before");

  await openUserMenu(page);
  await page.getByTestId("toggle-theme").click();
  await expect.poll(background).not.toBe(before);
  const after = await background();
  await shot(page, "08-theme-after");

  await page.reload();
  await expect.poll(background).toBe(after);
});

test("an operator cannot open /templates and sees 'Access denied'", async ({ page }) => {
  await signIn(page, OPERATOR.username, OPERATOR.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("nav-drawer")).not.toContainText(/templates/i);

  await page.goto("/templates");
  await expect(page.getByTestId("info-message")).toContainText(/access denied/i);
  await expect(page).not.toHaveURL(/\/templates$/);
  await shot(page, "09-operator-access-denied");

  // Within the app, the operator stays where it was.
  await page.goto("/events");
  await expect(page).toHaveURL(/\/events$/);
  await page.evaluate(() => {
    window.history.pushState({}, "", "/templates");
    window.dispatchEvent(new PopStateEvent("popstate"));
  });
  await expect(page.getByTestId("info-message")).toContainText(/access denied/i);
  await expect(page).toHaveURL(/\/events$/);
});
