// The settings screen in a real browser (spec sections 2, 5 and 6): an admin meets every field's
// message of section 5, saves, and finds the values kept; an event type is switched off and on; root
// has no settings entry. Then the screen in the four looks, saved for a person to look at.
import { formErrorText } from "@cellfleet/contract";
import { expect, type Page, test } from "@playwright/test";
import { FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { openUserMenu, signIn, signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

const text = (key: Parameters<typeof formErrorText>[0]) => formErrorText(key, "en");
const REQUIRED = text("required");
const MINUTES_RANGE = text("statusMinutesRange");
const ABOVE_PREVIOUS = text("statusMinutesAbovePrevious");
const COPIES_RANGE = text("copiesRange");

test.beforeEach(async ({ context, baseURL }) => {
  await useEnglish(context, baseURL as string);
});

async function openSettings(page: Page): Promise<void> {
  await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await openUserMenu(page);
  await page.getByRole("menuitem", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId("settings-warning")).not.toHaveValue("");
}

/** Types a value into a field and leaves it, so its message (or none) shows. */
async function enter(page: Page, name: string, value: string): Promise<void> {
  const field = page.getByTestId(`settings-${name}`);
  await field.fill(value);
  await field.blur();
}

/** Picks a zone in the time zone field's list. */
async function chooseZone(page: Page, zone: string): Promise<void> {
  const field = page.getByTestId("settings-time_zone");
  await field.click();
  await field.fill(zone);
  await page.getByRole("option", { name: zone, exact: true }).click();
  await expect(field).toHaveValue(zone);
}

/** The message under a field (its helper text), error or hint. */
const messageOf = (page: Page, name: string) =>
  page
    .getByTestId("domain-settings")
    .locator(".MuiFormControl-root", { has: page.getByTestId(`settings-${name}`) })
    .locator(".MuiFormHelperText-root");

test("the admin's settings form checks every field as spec section 5 says, saves, and keeps the values", async ({
  page,
}) => {
  await openSettings(page);
  const original = {
    warning: await page.getByTestId("settings-warning").inputValue(),
    pending: await page.getByTestId("settings-pending").inputValue(),
    online: await page.getByTestId("settings-online").inputValue(),
    backup: await page.getByTestId("settings-backup").inputValue(),
    journal: await page.getByTestId("settings-journal").inputValue(),
  };
  await expect(page.getByTestId("settings-time_zone")).toHaveValue("UTC");

  // Status minutes: required, an integer from 15 to 10080.
  for (const name of ["warning", "pending", "online"]) {
    for (const [value, message] of [
      ["", REQUIRED],
      ["14", MINUTES_RANGE],
      ["10081", MINUTES_RANGE],
      ["20.5", MINUTES_RANGE],
      ["abc", MINUTES_RANGE],
    ] as const) {
      await enter(page, name, value);
      await expect(messageOf(page, name), `${name} = '${value}'`).toHaveText(message);
    }
  }
  // Not above the previous status's value (warning, then pending, then online), judged again when the
  // one above changes.
  await enter(page, "warning", "60");
  await enter(page, "pending", "61");
  await expect(messageOf(page, "pending")).toHaveText(ABOVE_PREVIOUS);
  await enter(page, "online", "62");
  await expect(messageOf(page, "online")).toHaveText(ABOVE_PREVIOUS);
  await enter(page, "warning", "61");
  await expect(messageOf(page, "pending")).not.toHaveText(ABOVE_PREVIOUS);
  await enter(page, "pending", "62");
  await expect(messageOf(page, "pending")).toHaveText(ABOVE_PREVIOUS);
  await expect(messageOf(page, "online")).not.toHaveText(ABOVE_PREVIOUS);
  await enter(page, "warning", "10080");
  await expect(messageOf(page, "pending")).not.toHaveText(ABOVE_PREVIOUS);
  for (const name of ["warning", "pending", "online"]) {
    await expect(messageOf(page, name)).not.toHaveText(MINUTES_RANGE);
  }

  // Saved copies: 1 to 100 ('a value between 1 and 100').
  for (const name of ["backup", "journal"]) {
    for (const [value, message] of [
      ["", REQUIRED],
      ["0", COPIES_RANGE],
      ["101", COPIES_RANGE],
      ["2.5", COPIES_RANGE],
    ] as const) {
      await enter(page, name, value);
      await expect(messageOf(page, name), `${name} = '${value}'`).toHaveText(message);
    }
  }
  // With a field in error, Save sends nothing.
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("info-message")).toHaveCount(0);
  await shot(page, "settings-invalid");

  // The edges themselves are fine, and saved.
  await enter(page, "warning", "10080");
  await enter(page, "pending", "10080");
  await enter(page, "online", "15");
  await enter(page, "backup", "1");
  await enter(page, "journal", "100");
  // The domain's time zone: one of the browser's IANA zones.
  await chooseZone(page, "Asia/Tokyo");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("info-message")).toContainText("Information updated");
  await page.reload();
  await expect(page.getByTestId("settings-warning")).toHaveValue("10080");
  await expect(page.getByTestId("settings-pending")).toHaveValue("10080");
  await expect(page.getByTestId("settings-online")).toHaveValue("15");
  await expect(page.getByTestId("settings-backup")).toHaveValue("1");
  await expect(page.getByTestId("settings-journal")).toHaveValue("100");
  await expect(page.getByTestId("settings-time_zone")).toHaveValue("Asia/Tokyo");

  // The demo domain's other tests go on with the settings as they were.
  for (const [name, value] of Object.entries(original)) await enter(page, name, value);
  await chooseZone(page, "UTC");
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("info-message").last()).toContainText("Information updated");
  await page.reload();
  await expect(page.getByTestId("settings-backup")).toHaveValue(original.backup);
  await expect(page.getByTestId("settings-time_zone")).toHaveValue("UTC");
});

test("an admin sets remote access's limits: each judged by its range, saved and kept (ADR 038)", async ({
  page,
}) => {
  await openSettings(page);
  const names = ["idle_minutes", "max_minutes", "bandwidth_kib", "quota_mib", "recording_days"] as const;
  const original: Record<string, string> = {};
  for (const name of names) original[name] = await page.getByTestId(`settings-${name}`).inputValue();
  expect(original).toEqual({
    idle_minutes: "15",
    max_minutes: "120",
    bandwidth_kib: "1024",
    quota_mib: "256",
    recording_days: "90",
  });
  for (const [name, wrong, key] of [
    ["idle_minutes", "0", "idleMinutesRange"],
    ["max_minutes", "1441", "maxMinutesRange"],
    ["bandwidth_kib", "7", "bandwidthRange"],
    ["quota_mib", "2.5", "quotaRange"],
    ["recording_days", "3651", "recordingDaysRange"],
  ] as const) {
    await enter(page, name, "");
    await expect(messageOf(page, name), `${name} empty`).toHaveText(REQUIRED);
    await enter(page, name, wrong);
    await expect(messageOf(page, name), `${name} = '${wrong}'`).toHaveText(text(key));
  }
  await shot(page, "settings-remote-access-invalid");
  const chosen = {
    idle_minutes: "5",
    max_minutes: "1440",
    bandwidth_kib: "8",
    quota_mib: "102400",
    recording_days: "1",
  };
  for (const [name, value] of Object.entries(chosen)) await enter(page, name, value);
  await expect(messageOf(page, "idle_minutes")).toHaveText(
    "From 1 to 240; a session with no byte either way this long ends",
  );
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("info-message")).toContainText("Information updated");
  await page.reload();
  for (const [name, value] of Object.entries(chosen))
    await expect(page.getByTestId(`settings-${name}`)).toHaveValue(value);

  // The remote-access spec goes on with the limits as they were.
  for (const [name, value] of Object.entries(original)) await enter(page, name, value);
  await page.getByTestId("settings-save").click();
  await expect(page.getByTestId("info-message").last()).toContainText("Information updated");
  await page.reload();
  await expect(page.getByTestId("settings-quota_mib")).toHaveValue(original.quota_mib as string);
});

test("an admin switches an event type off and on, and the switch is kept", async ({ page }) => {
  await openSettings(page);
  const row = page.getByTestId("event-type-gpio_value_change");
  const toggle = row.locator("input[type=checkbox]");
  await expect(toggle).toBeChecked();
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await page.reload();
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
  await page.reload();
  await expect(toggle).toBeChecked();
});

test("root sees no settings entry", async ({ page }) => {
  await signInRoot(page);
  await openUserMenu(page);
  await expect(page.getByRole("menuitem", { name: "Profile" })).toBeVisible();
  await expect(page.getByRole("menuitem", { name: "Settings" })).toHaveCount(0);
});

for (const variant of LOOKS) {
  test(`settings screen, ${variant.name}`, async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.goto("/settings");
    await expect(page.getByTestId("event-type-router_started")).toBeVisible();
    await enter(page, "pending", "90");
    await shot(page, `settings-${variant.name}`);
  });
}
