// Saved scripts and settings templates (issue 13): an admin writes a template with a variable, sends
// it as a settings command whose dry run shows the text the first router gets, and saves a script
// from /script/new; then the script and template screens in the four looks, for a person to look at.
import { expect, type Page, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import { apiToken, signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const ids = { template: "", script: "", command: "" };

async function pickOption(page: Page, testId: string, option: RegExp) {
  await page.getByTestId(testId).getByRole("combobox").click();
  await page.getByRole("option", { name: option }).click();
}

test("a template with a variable is sent as settings: the dry run shows what the router gets", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await useEnglish(context, baseURL as string);
  await signInFleetAdmin(page);
  await page.goto("/templates/new");
  await page.getByLabel("Name").fill("APN settings");
  await page
    .getByTestId("script-text")
    .getByRole("textbox")
    .fill("uci set network.wan.apn={{apn}} # {{ident}}");
  await page.getByLabel("{{apn}}").fill("internet.example");
  await page.getByTestId("save-script").click();
  await expect(page).toHaveURL(/\/template\/[\w-]+$/);
  await expect(page.getByTestId("script-version")).toContainText("Version 1");
  ids.template = page.url().split("/").pop() as string;

  await page.goto("/commands/new");
  await pickOption(page, "command-type-select", /^Settings template$/);
  await pickOption(page, "command-template", /APN settings · v1/);
  await page.getByText("All routers of the domain").click();
  await page.getByTestId("dry-run-button").click();
  await expect(page.getByTestId("dry-run-rendered")).toContainText(
    /uci set network\.wan\.apn=internet\.example # [A-Z]+\d+/,
  );

  // Sent: the command names the template at version 1, and shows what a router got.
  await page.getByTestId("send-command").click();
  await page.getByTestId("confirm-action").click();
  await expect(page).toHaveURL(/\/command\/[\w-]+$/);
  ids.command = page.url().split("/").pop() as string;
  await expect(page.getByText("APN settings · v1")).toBeVisible();
  await expect(page.getByTestId("dry-run-rendered")).toContainText("apn=internet.example");

  await page.goto("/script/new");
  await page.getByLabel("Name").fill("Uptime and date");
  await page.getByTestId("script-text").getByRole("textbox").fill("uptime\ndate");
  await page.getByTestId("save-script").click();
  await expect(page).toHaveURL(/\/script\/[\w-]+$/);
  ids.script = page.url().split("/").pop() as string;
  await page.goto("/scripts");
  await expect(page.getByTestId("saved-scripts")).toContainText("Uptime and date");
});

for (const variant of LOOKS) {
  test(`script and template screens, ${variant.name}`, async ({ page, context, baseURL, request }) => {
    test.setTimeout(90_000);
    const token = await apiToken(request);
    // A tag's value over the default, so the template page shows both.
    const saved = await request.post(`/api/template/${ids.template}/save`, {
      data: {
        token,
        name: "APN settings",
        description: "Mobile data APN of the WAN modem",
        text: "uci set network.wan.apn={{apn}}\nuci set network.wan.mtu={{mtu}}\n# {{ident}} ({{model}})",
        defaults: { apn: "internet.example", mtu: "1500" },
        tag_values: { north: { apn: "north.example" } },
      },
    });
    expect(saved.status()).toBe(200);
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    const snap = async (name: string) => {
      await shot(page, `scripts-${variant.name}-${name}`);
    };
    await page.goto("/scripts");
    await expect(page.getByTestId("saved-scripts")).toBeVisible();
    await snap("scripts");
    await page.goto(`/script/${ids.script}`);
    await expect(page.getByTestId("script-text")).toBeVisible();
    await snap("script");
    await page.goto("/templates");
    await expect(page.getByTestId("saved-templates")).toBeVisible();
    await snap("templates");
    await page.goto(`/template/${ids.template}`);
    await expect(page.getByTestId("template-values")).toBeVisible();
    await snap("template");
    await page.goto("/templates/new");
    await expect(page.getByTestId("script-text")).toBeVisible();
    await snap("template-new");
    await page.goto("/commands/new");
    await pickOption(page, "command-type-select", /^(Settings template|Шаблон настроек)$/);
    await pickOption(page, "command-template", /APN settings/);
    await page.getByText(/^(All routers of the domain|Все маршрутизаторы домена)$/).click();
    await page.getByTestId("dry-run-button").click();
    await expect(page.getByTestId("dry-run-rendered")).toBeVisible();
    await snap("command-new");
    await page.goto(`/command/${ids.command}`);
    await expect(page.getByTestId("dry-run-rendered")).toBeVisible();
    await snap("command");
  });
}
