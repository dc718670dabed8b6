// Commands end to end (issue 13): a junior assistant sends a reboot to a tag; it waits unapproved and
// reaches no router; an assistant opens it from the 'command needing approval' event and approves it;
// the simulated demo routers reboot and the command page shows each execution completed. Then the
// command screens in the four looks, saved for a person to look at.
import { expect, test } from "@playwright/test";
import { ASSISTANT, FLEET_ADMIN, JUNIOR } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { apiToken, listRouters, signInAs, useEnglish } from "../support/session";
import { shot } from "../support/shots";

const TAG = "rebootrack";
const TAGGED = ["SIM000001", "SIM000002"];

test.describe.configure({ mode: "serial" });

let commandId = "";

test("a junior's reboot to a tag waits for an assistant, then every tagged router reboots", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  await useEnglish(context, baseURL as string);
  // Two demo routers carry the tag (set by the admin through the API, as the device form would).
  const token = await apiToken(request);
  const rows = await listRouters(request, token);
  for (const ident of TAGGED) {
    const device = rows.find((row) => row.ident === ident);
    expect(device, ident).toBeTruthy();
    const edit = await request.post(`/api/device/${device?._id}/edit`, { data: { token, tags: [TAG] } });
    expect(edit.status(), await edit.text()).toBe(200);
  }

  await signInAs(page, JUNIOR);
  await page.goto("/commands/new");
  await page.getByTestId("quick-list").getByText("Reboot", { exact: true }).click();
  await page.getByRole("combobox", { name: /^tags/i }).fill(TAG);
  await page.getByRole("combobox", { name: /^tags/i }).press("Enter");
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run")).toContainText("2 routers");
  await expect(page.getByTestId("dry-run")).toContainText(/approval of an administrator, an assistant/);
  await page.getByTestId("send-command").click();
  // A command to a tag asks once, with the dry run's figures (issue 27).
  await expect(page.getByTestId("confirm-dialog")).toContainText("Routers: 2");
  await page.getByTestId("confirm-action").click();
  await expect(page).toHaveURL(/\/command\/[0-9a-f-]+$/);
  commandId = page.url().split("/").pop() as string;
  await expect(page.getByTestId("command-status")).toHaveText("Awaiting approval");
  await expect(page.locator('[data-testid="execution-row"][data-status="unapproved"]')).toHaveCount(2);
  await expect(page.getByTestId("approval-box")).toHaveCount(0);

  await page.goto("/logout");
  await expect(page).toHaveURL(/\/login$/);
  await signInAs(page, ASSISTANT);
  await page.goto("/events");
  await page.getByTestId("approval-link").first().click();
  await expect(page).toHaveURL(new RegExp(`/command/${commandId}$`));
  await page.getByTestId("approval-box").getByRole("button", { name: "Approve" }).click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("Routers: 2.");
  await page.getByTestId("confirm-action").click();
  // Live: the socket moves each execution on; the demo routers take ~5 s to come back from a reboot.
  await expect(page.locator('[data-testid="execution-row"][data-status="completed"]')).toHaveCount(2, {
    timeout: 60_000,
  });
  await expect(page.getByTestId("command-status")).toHaveText("Completed");
  for (const ident of TAGGED) await expect(page.getByTestId("executions-table")).toContainText(ident);
});

for (const variant of LOOKS) {
  test(`command screens, ${variant.name}`, async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInAs(page, FLEET_ADMIN);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    const snap = async (name: string) => {
      await shot(page, `commands-${variant.name}-${name}`);
    };
    await page.goto("/commands");
    await expect(page.getByTestId("command-row").first()).toBeVisible();
    await snap("list");
    await page.goto("/commands/new");
    // The quick list puts recently used types first, which other specs change: take Reboot by name.
    await page
      .getByTestId("quick-list")
      .getByText(/^(Reboot|Перезагрузка)$/)
      .click();
    await page.getByRole("combobox", { name: /^(tags|теги)/i }).fill(TAG);
    await page.getByRole("combobox", { name: /^(tags|теги)/i }).press("Enter");
    await page.getByTestId("dry-run-button").click();
    await expect(page.getByTestId("dry-run")).toBeVisible();
    await snap("new");
    await page.goto(`/command/${commandId}`);
    await expect(page.getByTestId("execution-row").first()).toBeVisible();
    await snap("command");
    await page.goto("/reports");
    await expect(page.getByTestId("execution-row").first()).toBeVisible();
    await snap("reports");
    await page.getByTestId("execution-row").first().getByRole("link").first().click();
    await expect(page.getByTestId("report-output")).toBeVisible();
    await snap("report");
    await page.goto("/user-command/new");
    await expect(page.getByRole("textbox").first()).toBeVisible();
    await snap("user-command");
  });
}
