// What a first user trips on (issue 11), as seen on screen in the four looks: the device table fits
// its card at laptop widths in both languages, the policy form's labels are read whole, 'Send key'
// stays on one line, root's domain list counts the demo domain under one heading, a new domain admin
// starts with its plugins, and the event table keeps the level on a phone and the time of day beside
// 'just now'.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { signIn, signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

type Look = (typeof LOOKS)[number];

async function useLook(page: Page, context: BrowserContext, baseURL: string, look: Look) {
  await page.setViewportSize({ width: look.width, height: look.height });
  await page.evaluate((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
  await context.addCookies([{ name: "locale", value: look.locale, url: baseURL }]);
}

/** Labels whose text is wider than their box (cut with an ellipsis or clipped). */
function cutLabels(page: Page, selector: string) {
  return page.evaluate(
    (css) =>
      [...document.querySelectorAll<HTMLElement>(css)]
        .filter((label) => label.offsetParent !== null && label.scrollWidth > label.clientWidth + 1)
        .map((label) => label.textContent),
    selector,
  );
}

test("the device table fits its card at laptop widths, in Russian and English", async ({
  page,
  context,
  baseURL,
}) => {
  await useEnglish(context, baseURL as string);
  await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const locale of ["ru", "en"]) {
    await context.addCookies([{ name: "locale", value: locale, url: baseURL as string }]);
    for (const [width, height] of [
      [1280, 800],
      [1440, 900],
      [1536, 864],
    ]) {
      await page.setViewportSize({ width, height });
      await page.goto("/dashboard");
      await expect(page.getByTestId("device-row").first()).toBeVisible({ timeout: 30_000 });
      await expect(page.getByTestId("time-clock").first()).toBeVisible();
      const widths = await page.getByTestId("device-table").evaluate((table) => ({
        table: table.scrollWidth,
        card: (table.parentElement as HTMLElement).clientWidth,
      }));
      expect(widths.table, `${locale} at ${width}px`).toBeLessThanOrEqual(widths.card);
    }
  }
  for (const look of LOOKS) {
    await useLook(page, context, baseURL as string, look);
    await page.goto("/dashboard");
    await expect(page.getByTestId("device-row").first()).toBeVisible({ timeout: 30_000 });
    await shot(page, `first-user-${look.name}-dashboard`);
    await page.goto("/events");
    await expect(page.getByTestId("event-row").first()).toBeVisible({ timeout: 30_000 });
    // The level is in view on a phone too (in the message cell), and the time of day beside 'just now'.
    const levels = page
      .getByTestId("event-row")
      .first()
      .locator(".MuiChip-outlined")
      .filter({ visible: true });
    await expect(levels).toHaveCount(1);
    await expect(page.getByTestId("time-clock").first()).toBeVisible();
    await shot(page, `first-user-${look.name}-events`);
  }
});

test("root: the demo domain counted under one heading, a new admin with its plugins, whole policy labels", async ({
  page,
  context,
  baseURL,
}) => {
  await useEnglish(context, baseURL as string);
  await signInRoot(page);
  for (const look of LOOKS) {
    await useLook(page, context, baseURL as string, look);
    await page.goto("/domains");
    await expect(page.getByRole("link", { name: "demo", exact: true })).toBeVisible();
    await expect(page.getByText(/^(Total|Всего): [1-9]/)).toBeVisible();
    await expect(page.getByTestId("list-card-title")).toHaveCount(0);
    await shot(page, `first-user-${look.name}-domains`);

    await page.getByRole("link", { name: "demo", exact: true }).click();
    await expect(page).toHaveURL(/\/domain\/[^/]+$/);
    const domainPath = new URL(page.url()).pathname;
    await page.goto(`${domainPath}/admins/new`);
    for (const plugin of ["notification", "accounting", "keychain"]) {
      const hint = page.getByTestId(`plugin-hint-${plugin}`);
      await expect(hint).toBeVisible();
      await expect(hint.locator("xpath=ancestor::label//input")).toBeChecked();
    }
    await shot(page, `first-user-${look.name}-new-domain-admin`);

    await page.goto("/policy/new");
    await expect(page.locator("form label").first()).toBeVisible();
    // Polled: the labels are measured once the page's layout has settled (fonts, the look just set).
    await expect.poll(() => cutLabels(page, "form label.MuiInputLabel-root")).toEqual([]);
    await shot(page, `first-user-${look.name}-policy`);
  }
});

test("registration: 'Send key' on one line in every look", async ({ page, context, baseURL }) => {
  for (const look of LOOKS) {
    await page.goto("/registry");
    await useLook(page, context, baseURL as string, look);
    await page.goto("/registry");
    const sendKey = page.getByRole("button", { name: /^(send key|отправить ключ)$/i });
    await expect(sendKey).toBeVisible();
    const lines = await sendKey.evaluate((button) => {
      const style = getComputedStyle(button);
      return Math.round(button.getBoundingClientRect().height / Number.parseFloat(style.lineHeight || "24"));
    });
    expect(lines).toBeLessThanOrEqual(1);
    await shot(page, `first-user-${look.name}-registry`);
  }
});
