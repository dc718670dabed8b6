// A view-only operator (spec section 6) on a router's page and its edit page, as the permission table
// says: no Edit button, and a form that shows the router but offers nothing to save. Saved in the four
// looks (desktop and mobile, light and dark, Russian and English) for a person to look at.
import { expect, test } from "@playwright/test";
import { OPERATOR } from "../support/accounts";
import { signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

const VARIANTS = [
  { name: "desktop-light-en", width: 1440, height: 900, theme: "light", locale: "en" },
  { name: "desktop-dark-ru", width: 1440, height: 900, theme: "dark", locale: "ru" },
  { name: "mobile-light-ru", width: 390, height: 844, theme: "light", locale: "ru" },
  { name: "mobile-dark-en", width: 390, height: 844, theme: "dark", locale: "en" },
] as const;

for (const variant of VARIANTS) {
  test(`an operator sees a router without edit controls, ${variant.name}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    // Signed in in English (the helper finds the form by its English labels), then the variant's language.
    await useEnglish(context, baseURL as string);
    await signIn(page, OPERATOR.username, OPERATOR.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.reload();

    // A router of the demo fleet, found and opened from the dashboard as an operator would (other
    // specs add routers, so it need not be on the first page).
    const search = page
      .getByTestId("list-card")
      .first()
      .getByRole("combobox", { name: /^(search|поиск)$/i });
    await search.fill("SIM000001");
    await search.press("Enter");
    const row = page.locator('[data-testid="device-row"][data-ident="SIM000001"]');
    await expect(row).toBeVisible({ timeout: 30_000 });
    await row.getByRole("link", { name: "SIM000001" }).click();
    await expect(page).toHaveURL(/\/device\/[^/]+$/);
    await expect(page.getByTestId("page-title")).toHaveText("SIM000001");
    await expect(page.getByTestId("modem-row").first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole("link", { name: /^(edit|изменить|редактировать)$/i })).toHaveCount(0);
    await shot(page, `operator-${variant.name}-device`);

    // The edit page by its address: every field read-only, nothing to save or delete.
    const deviceId = new URL(page.url()).pathname.split("/").at(-1);
    await page.goto(`/device/edit/${deviceId}`);
    const description = page.locator("textarea, input").filter({ hasNot: page.locator("[type=hidden]") });
    await expect(description.first()).toBeVisible({ timeout: 10_000 });
    for (const field of await page.locator("form input:not([type=hidden]), form textarea").all()) {
      if (await field.isVisible()) expect(await field.isEditable()).toBe(false);
    }
    await expect(page.getByRole("button", { name: /^(save|сохранить)$/i })).toHaveCount(0);
    await expect(page.getByRole("button", { name: /^(delete|удалить)$/i })).toHaveCount(0);
    await shot(page, `operator-${variant.name}-device-edit`);
  });
}
