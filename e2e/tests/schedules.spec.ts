// Schedule rules end to end (issue 14): an admin meets the rule form's messages of spec section 5,
// then adds a weekly backup rule for a tag, at a time two minutes ahead in UTC on today's weekday;
// when it comes, the server's job fires it and the simulated demo routers carrying the tag upload
// their backups, which appear in their files tables; an untagged router gets none. No clock is
// faked: the rule waits for its real occurrence. Then the screens in the four looks.
import { formErrorText } from "@cellfleet/contract";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { apiToken, listRouters, signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

const TAG = "nightly";
const TAGGED = ["SIM000004", "SIM000005"];
const UNTAGGED = "SIM000003";
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const text = (key: Parameters<typeof formErrorText>[0]) => formErrorText(key, "en");

test.describe.configure({ mode: "serial" });

let ruleId = "";

async function deviceIds(request: APIRequestContext, token: string): Promise<Map<string, string>> {
  return new Map((await listRouters(request, token)).map((row) => [row.ident, row._id] as const));
}

async function backupsOf(request: APIRequestContext, token: string, deviceId: string, since: number) {
  const answer = await request.post("/api/commonfiles", {
    data: { token, device_id: deviceId, file_type: "backup" },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  const files = (await answer.json()).items as Array<{ filename: string; create_date: number }>;
  return files.filter((file) => file.create_date >= since);
}

/** The message under a field of the rule form. */
const messageOf = (page: Page, testId: string) =>
  page
    .getByTestId("schedule-rule-form")
    .locator(".MuiFormControl-root", { has: page.getByTestId(testId) })
    .locator(".MuiFormHelperText-root");

async function signInAsAdmin(page: Page) {
  await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("an admin's weekly backup rule for a tag fires when due: the tagged routers' backups appear", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(300_000);
  await useEnglish(context, baseURL as string);
  const token = await apiToken(request);
  const ids = await deviceIds(request, token);
  for (const ident of TAGGED) {
    const edit = await request.post(`/api/device/${ids.get(ident)}/edit`, { data: { token, tags: [TAG] } });
    expect(edit.status(), await edit.text()).toBe(200);
  }

  await signInAsAdmin(page);
  await page.goto("/settings");
  await page.getByTestId("schedule-add-backup").click();
  await expect(page).toHaveURL(/\/backup\/task\/new$/);
  await expect(page.getByTestId("page-title")).toHaveText("New backup rule");
  // A new rule starts daily (issue 27); this one is made weekly, with Monday offered first.
  await expect(page.getByRole("radio", { name: "Daily" })).toBeChecked();
  await page.getByRole("radio", { name: "On days of the week" }).check();
  await expect(page.getByRole("checkbox", { name: "Mon" })).toBeChecked();

  // Spec section 5: required name, copies 1 to 100, a time of day, a day for a weekly rule, tags
  // for a rule on tagged routers. With any of them wrong, Save sends nothing.
  const name = page.getByTestId("schedule-name");
  await name.fill("  ");
  await name.blur();
  await expect(messageOf(page, "schedule-name")).toHaveText(text("required"));
  for (const value of ["0", "101", "2.5"]) {
    await page.getByTestId("schedule-copies").fill(value);
    await page.getByTestId("schedule-copies").blur();
    await expect(messageOf(page, "schedule-copies"), value).toHaveText(text("copiesRange"));
  }
  await page.getByTestId("schedule-time").fill("24:00");
  await page.getByTestId("schedule-time").blur();
  await expect(messageOf(page, "schedule-time")).toHaveText(text("timeInvalid"));
  await page.getByRole("checkbox", { name: "Mon" }).uncheck();
  await page.getByRole("radio", { name: "Routers with tags" }).check();
  await page.getByTestId("schedule-save").click();
  await expect(page.getByTestId("schedule-days")).toContainText(text("daysRequired"));
  await expect(page.getByTestId("schedule-tags")).toContainText(text("tagsRequired"));
  await expect(page).toHaveURL(/\/backup\/task\/new$/);
  await shot(page, "schedules-rule-invalid");

  // Two minutes ahead in UTC, on that moment's weekday: the rule's first occurrence.
  const due = new Date(Date.now() + 2 * 60_000);
  const time = due.toISOString().slice(11, 16);
  const weekday = WEEKDAYS[(due.getUTCDay() + 6) % 7] as string;
  await name.fill("Nightly backup");
  await page.getByTestId("schedule-copies").fill("3");
  await page.getByTestId("schedule-time").fill(time);
  await page.getByRole("checkbox", { name: weekday }).check();
  // The time is read in the domain's zone (UTC unless the settings say otherwise).
  await expect(page.getByTestId("schedule-time-zone")).toContainText("time zone, UTC");
  await page.getByRole("combobox", { name: /^tags/i }).fill(TAG);
  await page.getByRole("combobox", { name: /^tags/i }).press("Enter");
  await page.getByTestId("schedule-save").click();
  await expect(page.getByTestId("info-message").last()).toContainText("Information updated");
  await expect(page).toHaveURL(/\/backup\/task\/[0-9a-f-]+$/);
  ruleId = page.url().split("/").pop() as string;

  await page.goto("/settings");
  const row = page.getByTestId(`schedule-rule-${ruleId}`);
  await expect(row).toContainText("Nightly backup");
  await expect(row).toContainText(`${weekday} · every week · ${time} (UTC)`);
  await expect(row.locator("input[type=checkbox]")).toBeChecked();

  // The occurrence comes; each tagged router uploads a backup (waits up to three minutes).
  const since = due.getTime() - 60_000;
  for (const ident of TAGGED) {
    await expect
      .poll(async () => (await backupsOf(request, token, ids.get(ident) as string, since)).length, {
        message: `${ident}'s scheduled backup`,
        timeout: 180_000,
        intervals: [2000],
      })
      .toBeGreaterThan(0);
  }
  expect(await backupsOf(request, token, ids.get(UNTAGGED) as string, since)).toEqual([]);

  // In the router's files table.
  await page.goto(`/device/${ids.get(TAGGED[0] as string)}`);
  const files = page.getByTestId("device-files");
  await files.getByTestId("device-files-backup").click();
  await expect(files.getByTestId("file-row").first()).toBeVisible();
  await shot(page, "schedules-device-backup");
  // The rule moved on to next week.
  await page.goto(`/backup/task/${ruleId}`);
  await expect(page.getByTestId("page-title")).toHaveText("Nightly backup");
});

test("the rule's switch turns it off and on, and is kept", async ({ page, context, baseURL }) => {
  await useEnglish(context, baseURL as string);
  await signInAsAdmin(page);
  await page.goto("/settings");
  const toggle = page.getByTestId(`schedule-rule-${ruleId}`).locator("input[type=checkbox]");
  await toggle.click();
  await expect(toggle).not.toBeChecked();
  await page.reload();
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(toggle).toBeChecked();
});

for (const variant of LOOKS) {
  test(`schedule screens, ${variant.name}`, async ({ page, context, baseURL }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInAsAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.goto("/settings");
    await expect(page.getByTestId(`schedule-rule-${ruleId}`)).toBeVisible();
    await page.getByTestId("schedule-rules-backup").scrollIntoViewIfNeeded();
    await shot(page, `schedules-settings-${variant.name}`);
    await page.goto(`/backup/task/${ruleId}`);
    await expect(page.getByTestId("schedule-name")).toHaveValue("Nightly backup");
    await shot(page, `schedules-rule-${variant.name}`);
  });
}
