// Software (firmware) rules (issue 16): root adds a rule whose URL a loopback HTTP server in this
// spec answers; the server fetches the file and the list shows it Ready with its series, models and
// file; then the list and the rule in the four looks, for a person to look at.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import { signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const FIRMWARE = Buffer.alloc(256 * 1024, 5);
let server: Server;
let base = "";
let ruleId = "";

test.beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url?.startsWith("/missing/")) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(FIRMWARE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

test("root adds a software rule; the server fetches it and the list shows it Ready", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await useEnglish(context, baseURL as string);
  await signInRoot(page);
  await page.goto("/software");
  await page.getByRole("button", { name: /add/i }).click();
  await expect(page).toHaveURL(/\/software\/new$/);
  await page.getByLabel("Name").fill("RUT9 stable");
  await page.getByLabel("URL").fill(`${base}/fw/RUT9_R_00.07.08.bin`);
  await expect(page.getByText("Series: RUT9")).toBeVisible();
  const models = page.getByLabel("Models");
  await models.fill("RUT955");
  await models.press("Enter");
  await models.fill("RUT950");
  await models.press("Enter");
  // The demo fleet's models too, so the rollout below has routers to update.
  for (const model of ["RUTX11", "RUT241", "RUTX50", "LtAP LTE6", "R1510", "R1520"]) {
    await models.fill(model);
    await models.press("Enter");
  }
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/software\/[0-9a-f-]{36}$/);
  ruleId = page.url().split("/").pop() as string;
  await expect(page.getByTestId("software-status").last()).toHaveText("Ready", { timeout: 20_000 });
  await expect(page.getByText("RUT9_R_00.07.08.bin")).toBeVisible();
  // The rollout's dry run names the version the file carries and what each stage would take.
  await page.getByTestId("rollout-dry-run").click();
  await expect(page.getByText("Target version: RUT9_R_00.07.08").first()).toBeVisible();
  // The rollout starts over the demo fleet's routers of those models: its stages and counts show.
  await expect(page.getByTestId("rollout-card")).toContainText("not been rolled out yet");
  // A maintenance window that opens two hours from now (the demo domain is on UTC): every router waits.
  await expect(page.getByTestId("rollout-card")).toContainText("In each domain's time zone");
  const hour = (new Date().getUTCHours() + 2) % 24;
  const at = (h: number) => `${String(h % 24).padStart(2, "0")}:00`;
  await page.getByTestId("rollout-window-start").fill(at(hour));
  await page.getByTestId("rollout-window-end").fill(at(hour + 1));
  await page.getByTestId("rollout-start").click();
  await expect(page.getByTestId("rollout-status")).toHaveText("Running");
  await expect(page.getByTestId("rollout-progress").getByRole("row", { name: /Canary/ })).toBeVisible();
  await expect(page.getByTestId("rollout-held-window")).toContainText("outside the domain's window");
  await shot(page, "software-rollout-held-window");
  await page.getByRole("button", { name: "Cancel rollout" }).click();
  await expect(page.getByTestId("rollout-status")).toHaveText("Cancelled");
  // What had not been sent is skipped, and a new rollout may start.
  await expect(
    page.getByTestId("rollout-progress").getByRole("columnheader", { name: "Skipped" }),
  ).toBeVisible();
  await expect(page.getByTestId("rollout-start")).toBeVisible();

  // A second rule whose URL answers 404: HTTP Error 404.
  await page.goto("/software/new");
  await page.getByLabel("Name").fill("Old link");
  await page.getByLabel("URL").fill(`${base}/missing/TRB1_R_1.bin`);
  await page.getByLabel("Models").fill("TRB140");
  await page.getByLabel("Models").press("Enter");
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page.getByTestId("software-status").last()).toHaveText("HTTP Error 404", { timeout: 20_000 });

  await page.goto("/software");
  const table = page.getByTestId("software-table");
  const row = table.getByRole("row", { name: /RUT9 stable/ });
  await expect(row.getByTestId("software-status")).toHaveText("Ready");
  await expect(row).toContainText("RUT9_R_00.07.08.bin");
  await expect(row).toContainText("RUT955");
  // The search covers the status text and the models.
  await page.getByRole("combobox", { name: /search/i }).fill("404");
  await expect(table.getByRole("row", { name: /Old link/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /RUT9 stable/ })).toHaveCount(0);
  await page.getByRole("combobox", { name: /search/i }).fill("rut950");
  await expect(table.getByRole("row", { name: /RUT9 stable/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /Old link/ })).toHaveCount(0);
  await page.getByRole("combobox", { name: /search/i }).fill("");
});

for (const look of LOOKS) {
  test(`software screens ${look.name}`, async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: look.width, height: look.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
    // Signed in with the English form, then shown in the look's language.
    await useEnglish(context, baseURL as string);
    await signInRoot(page);
    await context.addCookies([{ name: "locale", value: look.locale, url: baseURL as string }]);
    for (const [path, name] of [
      ["/software", "list"],
      ["/software/new", "new"],
      [`/software/${ruleId}`, "rule"],
    ] as const) {
      await page.goto(path);
      if (name !== "new") await expect(page.getByTestId("software-status").first()).toBeVisible();
      if (name === "rule") {
        await page.getByTestId("rollout-dry-run").click();
        await expect(page.getByText(/RUT9_R_00\.07\.08$/).first()).toBeVisible();
        await expect(page.getByTestId("rollout-status")).toBeVisible();
      }
      await page.waitForTimeout(700);
      await shot(page, `software-${look.name}-${name}`);
    }
  });
}
