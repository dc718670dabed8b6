// Named a-… so it runs first: it signs root in with the factory password, which any later signInRoot changes.
import { expect, test } from "@playwright/test";
import { OPERATOR, ROOT_NEW_PASSWORD, ROOT_PASSWORD } from "../support/accounts";
import { openUserMenu, signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

test.beforeEach(async ({ context, baseURL }) => {
  await useEnglish(context, baseURL as string);
});

test("root signs in with the factory password, is held on /profile, changes it and lands on /accounting", async ({
  page,
}) => {
  await signIn(page, "root", ROOT_PASSWORD);
  await expect(page).toHaveURL(/\/profile$/);
  await shot(page, "01-root-factory-profile");

  // Every other route is locked while the factory password is unchanged.
  await page.goto("/accounting");
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId("info-message")).toContainText(/access denied/i);

  await page.getByLabel(/current password/i).fill(ROOT_PASSWORD);
  await page.getByLabel(/^new password/i).fill(ROOT_NEW_PASSWORD);
  await page.getByLabel(/confirm/i).fill(`${ROOT_NEW_PASSWORD}x`);
  await page.getByRole("button", { name: /change password/i }).click();
  await expect(page.getByText("Passwords do not match!")).toBeVisible();
  await shot(page, "02-root-passwords-do-not-match");

  await page.getByLabel(/confirm/i).fill(ROOT_NEW_PASSWORD);
  await page.getByRole("button", { name: /change password/i }).click();
  await expect(page).toHaveURL(/\/accounting$/, { timeout: 15_000 });
  await expect(page.getByTestId("nav-drawer")).toContainText(/accounting/i);
  await expect(page.getByTestId("nav-drawer")).not.toContainText(/dashboard/i);
  await shot(page, "03-root-accounting");

  // The new password works after signing out.
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, "root", ROOT_NEW_PASSWORD);
  await expect(page).toHaveURL(/\/accounting$/);
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
