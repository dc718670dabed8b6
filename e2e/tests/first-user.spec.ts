// What a first user trips on (issue 11): deleting a router from its edit page, then a missing router's
// page. Saved in the four looks for a person to look at.
import { expect, test } from "@playwright/test";
import { FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { infoMessages, recordInfoMessages } from "../support/messages";
import { signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test("deleting a router from its edit page lands on the dashboard with no error, and its page says it is gone", async ({
  page,
  context,
  baseURL,
}) => {
  await useEnglish(context, baseURL as string);
  await recordInfoMessages(context);
  await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto("/devices/new/one");
  await page.getByLabel(/^ident/i).fill("GONE0001");
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/device\/[^/]+$/);
  const deviceId = new URL(page.url()).pathname.split("/").at(-1) as string;

  await page.goto(`/device/edit/${deviceId}`);
  await page.getByRole("button", { name: /^delete$/i }).click();
  await page.getByRole("button", { name: /^tap again$/i }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Once the dashboard has loaded and every request the deletion set off has been answered.
  await expect(page.getByTestId("device-row").first()).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  const shown = await infoMessages(page);
  expect(shown.filter((text) => /not found|\/api\//i.test(text))).toEqual([]);

  for (const look of LOOKS) {
    await page.setViewportSize({ width: look.width, height: look.height });
    await page.evaluate((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
    await context.addCookies([{ name: "locale", value: look.locale, url: baseURL as string }]);
    await page.goto(`/device/${deviceId}`);
    const missing = page.getByTestId("entity-missing");
    await expect(missing).toBeVisible();
    await expect(missing).toContainText(look.locale === "en" ? "Device not found" : "Устройство не найдено");
    await expect(missing).not.toContainText("/api/");
    await expect(page.getByRole("button", { name: /^(retry|повторить)$/i })).toHaveCount(0);
    await shot(page, `first-user-${look.name}-missing-device`);
  }
  await page.getByRole("link", { name: /^(go back|вернуться)$/i }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await infoMessages(page)).filter((text) => /not found|\/api\//i.test(text))).toEqual([]);
});
