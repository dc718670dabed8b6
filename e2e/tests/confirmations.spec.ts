// A wide or dangerous action asks once (issue 27): a factory reset to all routers names how many
// routers it reaches and how many are offline, and says it cannot be undone; Cancel sends nothing.
// The question in the four looks, saved for a person to look at.
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import { apiToken, signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

async function commandCount(request: APIRequestContext): Promise<number> {
  const token = await apiToken(request);
  const list = await request.post("/api/commands/", { data: { token } });
  return (await list.text()).trim().split("\n").filter(Boolean).length;
}

async function askFactoryResetToAll(page: Page) {
  await page.goto("/commands/new");
  await page.getByTestId("command-type-select").click();
  await page.getByRole("option", { name: /^(Factory reset|Сброс к заводским)$/ }).click();
  await page.getByText(/^(All routers of the domain|Все маршрутизаторы домена)$/).click();
  await page.getByTestId("send-command").click();
  await expect(page.getByTestId("confirm-dialog").getByRole("dialog")).toBeVisible();
}

test("a factory reset to all routers asks first, with the dry run's figures; Cancel sends nothing", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await useEnglish(context, baseURL as string);
  const before = await commandCount(request);
  await signInFleetAdmin(page);
  await askFactoryResetToAll(page);
  const dialog = page.getByTestId("confirm-dialog");
  await expect(dialog).toContainText("Send “Factory reset”?");
  await expect(dialog).toContainText(/Routers: \d+, offline now: \d+/);
  await expect(dialog).toContainText("A Factory reset cannot be undone on the router.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/commands\/new$/);
  expect(await commandCount(request)).toBe(before);
});

for (const variant of LOOKS) {
  test(`the confirmation, ${variant.name}`, async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await askFactoryResetToAll(page);
    // The dialog fades in: the picture is taken once it has.
    await expect(page.locator(".MuiDialog-container")).toHaveCSS("opacity", "1");
    await shot(page, `confirmations-${variant.name}-factory-reset`);
  });
}
