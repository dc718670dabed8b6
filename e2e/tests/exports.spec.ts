// CSV exports and the settings' custom action types in a real browser (issue 14): an admin filters
// the device list and downloads it, and the file holds the filtered routers with formula cells
// guarded; the same admin adds, pages through and deletes custom action types on /settings. Then
// both screens in the four looks, saved for a person to look at.
import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { apiToken, signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const IDENT = `EXPORT${Date.now().toString(36).toUpperCase()}`;
const FORMULA = '=HYPERLINK("http://evil")';

async function signInAdmin(page: Page): Promise<void> {
  await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("an admin downloads the filtered device list as CSV, formulas guarded", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await useEnglish(context, baseURL as string);
  const token = await apiToken(request);
  const created = await request.post("/api/devices/new", {
    data: { token, ident: IDENT, description: FORMULA, tags: ["exported"] },
  });
  expect(created.status(), await created.text()).toBe(200);

  await signInAdmin(page);
  const card = page.getByTestId("list-card").first();
  await card.getByRole("combobox", { name: "Search" }).fill(IDENT);
  await card.getByRole("combobox", { name: "Search" }).press("Enter");
  await expect(page.getByText(IDENT).first()).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    card.getByRole("button", { name: "Download CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("devices.csv");
  const text = readFileSync((await download.path()) as string, "utf8");
  const rows = text.trim().split("\r\n");
  expect(rows[0]).toBe(
    "ident,description,tags,status,last_contact,model,firmware,serial,network_mode,csq,events,create_time",
  );
  // The list's search filters the file too: just the one router, its formula kept as text.
  expect(rows).toHaveLength(2);
  expect(rows[1]).toContain(`${IDENT},"'=HYPERLINK(""http://evil"")",exported,`);
});

test("an admin adds custom action types on /settings, pages through three a page, and deletes them", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await useEnglish(context, baseURL as string);
  const token = await apiToken(request);
  await signInAdmin(page);
  await page.goto("/settings");
  const card = page.getByTestId("command-types");
  await card.getByRole("button", { name: "Add an action type" }).click();
  await expect(page).toHaveURL(/\/user-command\/new$/);
  await page.getByLabel("Name").fill("e2e uptime");
  await page.getByLabel("Shell command").fill("uptime");
  await page.getByRole("button", { name: "Save" }).click();
  // Added from the settings, the form goes back there.
  await expect(page).toHaveURL(/\/settings$/);
  await expect(card.getByTestId("command-type-e2e uptime")).toBeVisible();

  for (const name of ["e2e disk", "e2e memory", "e2e routes"]) {
    const made = await request.post("/api/command_type", { data: { token, type: name, command: "df -h" } });
    expect(made.status(), await made.text()).toBe(200);
  }
  await page.reload();
  const rows = card.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await card.getByRole("button", { name: "Page 2" }).click();
  await expect(rows).toHaveCount(1);
  await shot(page, "settings-command-types-page-2");
  await card.getByRole("button", { name: "Page 1" }).click();

  // Open one: its page shows its command.
  await card.getByTestId("command-type-e2e disk").click();
  await expect(page.getByLabel("Shell command")).toHaveValue("df -h");
  await page.goBack();

  // Bulk delete: check two, the button asks for a second click.
  await card.getByRole("checkbox", { name: "e2e disk" }).check();
  await card.getByRole("checkbox", { name: "e2e memory" }).check();
  const bulk = card.getByRole("button", { name: "Delete checked (2)" });
  await bulk.click();
  await expect(card.getByRole("button", { name: "Tap again" })).toBeVisible();
  await card.getByRole("button", { name: "Tap again" }).click();
  await expect(card.getByTestId("command-type-e2e disk")).toHaveCount(0);
  await expect(card.getByTestId("command-type-e2e memory")).toHaveCount(0);

  // One by one, with the same two-step confirm.
  const row = card.getByTestId("command-type-e2e routes");
  await row.getByRole("button", { name: "Delete" }).click();
  await row.getByRole("button", { name: "Tap again" }).click();
  await expect(row).toHaveCount(0);
  await expect(card.getByTestId("command-type-e2e uptime")).toBeVisible();
});

for (const variant of LOOKS) {
  test(`settings' action types and the events list card, ${variant.name}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await useEnglish(context, baseURL as string);
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await signInAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.goto("/settings");
    await expect(page.getByTestId("command-types").locator("tbody tr").first()).toBeVisible();
    await page.getByTestId("command-types").scrollIntoViewIfNeeded();
    await shot(page, `export-settings-command-types-${variant.name}`);
    await page.goto("/events");
    await expect(page.getByTestId("list-card")).toBeVisible();
    await shot(page, `export-events-list-${variant.name}`);
  });
}
