// Device insight and onboarding (issue 18) in a real browser against the real server: a router
// created with a generated key gets its first contact from the snippet on its page and, with a wrong
// key, shows why it was refused; a router with two simulated days shows its signal charts, outage,
// changes and SIM usage, and the dashboard lists it among those whose signal got worse. The screens
// are saved in the four looks for a person to look at.
import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import { HISTORY_ROUTER } from "../support/router-history";
import { signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

/** The snippet up to and with the hello (not the subscription, which waits): what a person pastes first. */
function helloPart(snippet: string): string {
  const lines = snippet.split("\n");
  return lines.slice(0, lines.findIndex((line) => line.startsWith("mosquitto_sub")) - 1).join("\n");
}

test("a router created with a generated key gets its first contact from the snippet; a wrong key says why", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await useEnglish(context, baseURL as string);
  await signInFleetAdmin(page);
  const ident = `TWOMIN${Date.now().toString(36).toUpperCase()}`;
  await page.goto("/devices/new/one");
  await page.getByLabel(/^ident/i).fill(ident);
  await page.getByTestId("generate-key").click();
  const key = await page.getByTestId("key-input").inputValue();
  expect(key).toMatch(/^[0-9A-F]{64}$/);
  // The form already says where the router connects, with its snippet as typed.
  const preview = page.getByTestId("connect-preview");
  await expect(preview.getByTestId("broker-url")).toHaveText(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`);
  await expect(preview.getByTestId("connect-snippet")).toContainText(`IDENT=${ident}`);
  await expect(preview.getByTestId("connect-snippet")).toContainText(/TOKEN=[0-9a-f]{64}/);
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/device\/[^/]+$/);

  // Pending: the page says it waits for the first contact, and shows the key this once.
  await expect(page.getByTestId("waiting-first-contact")).toBeVisible();
  await expect(page.getByTestId("status-chip")).toHaveText(/waiting for its first contact/i);
  await expect(page.getByTestId("fresh-key-value")).toHaveText(key);
  const snippet = page.getByTestId("connect-snippet");
  await expect(snippet).toContainText(/TOKEN=[0-9a-f]{64}/);
  await expect(page.getByTestId("broker-url")).toHaveText(`mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`);

  // The snippet, pasted into a shell, is the router's first contact.
  execFileSync("bash", ["-c", helloPart((await snippet.textContent()) ?? "")], { timeout: 15_000 });
  await expect(page.getByTestId("status-chip")).toHaveAttribute("data-status", "online", { timeout: 20_000 });
  await expect(page.getByTestId("waiting-first-contact")).toHaveCount(0);

  // A reload forgets the key: it was shown once.
  await page.reload();
  await expect(page.getByTestId("fresh-key")).toHaveCount(0);

  // The router with a wrong key is refused, and its page says so.
  const wrong = helloPart((await snippet.textContent()) ?? "").replace(/KEY=.*/, `KEY=${"0".repeat(64)}`);
  expect(() => execFileSync("bash", ["-c", wrong], { timeout: 15_000, stdio: "pipe" })).toThrow();
  // Refused after its last contact, the connect card opens by itself with the reason.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("last-refusal")).toContainText(/wrong key at .* from 127\.0\.0\.1/i, {
      timeout: 2000,
    });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("connect-snippet")).toBeVisible();
  await expect(page.getByTestId("signal-none")).toBeVisible();
  await shot(page, "insight-refused-desktop-light-en");
});

for (const variant of LOOKS) {
  test(`a router's day: charts, usage and the dashboard, ${variant.name}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.reload();

    // The dashboard lists the router among those whose signal got worse.
    const decline = page.getByTestId("decline-row").filter({ hasText: HISTORY_ROUTER.ident });
    await expect(decline).toBeVisible({ timeout: 15_000 });
    // Its change, and on a wide screen its level, in the interface's units and decimal mark (issue 11).
    const ru = variant.locale === "ru";
    await expect(decline).toContainText(ru ? /-\d+(,\d+)? дБ(?!м)/ : /-\d+(\.\d+)? dB(?!m)/);
    if (variant.width > 1000)
      await expect(decline).toContainText(ru ? /-\d+(,\d+)? дБм/ : /-\d+(\.\d+)? dBm/);
    await shot(page, `insight-${variant.name}-dashboard`);

    await decline.getByRole("link", { name: HISTORY_ROUTER.ident }).click();
    await expect(page.getByTestId("page-title")).toHaveText(HISTORY_ROUTER.ident);
    const charts = page.getByTestId("signal-charts");
    await expect(charts).toBeVisible({ timeout: 15_000 });
    // The timeline and one chart per metric of the modem, drawn.
    await expect(charts.locator("canvas")).toHaveCount(6);
    await expect(page.getByTestId("changes-list")).toContainText(/1→2|B3→B20/);
    await expect(page.getByTestId("sim-usage")).toHaveCount(2);
    await shot(page, `insight-${variant.name}-device`);

    if (variant.name === "desktop-dark-ru") {
      await page.getByTestId("range-30d").click();
      await expect(charts.locator("canvas")).toHaveCount(6);
      await shot(page, `insight-${variant.name}-device-30d`);
    }
    if (variant.name === "desktop-light-en") {
      await page.getByTestId("range-7d").click();
      await expect(charts.locator("canvas")).toHaveCount(6);
      // A plan for every SIM in routers tagged "metered": the period's usage against it.
      await page.getByTestId("sim-usage").first().getByTestId("plan-edit").click();
      await page.getByLabel(/metered/).check();
      await page.getByTestId("plan-size").fill("1");
      await page.getByTestId("plan-save").click();
      await expect(page.getByTestId("period-total").first()).toContainText(/of 1 GB \(\d+(\.\d)? %\)/);
      await shot(page, `insight-${variant.name}-device-7d-plan`);
    }

    // A new router with a generated key: the form, then its page waiting for the first contact.
    await page.goto("/devices/new/one");
    await page.getByTestId("generate-key").click();
    await expect(page.getByTestId("key-input")).toHaveValue(/^[0-9A-F]{64}$/);
    await page
      .locator('input[name="ident"]')
      .fill(`LOOK${variant.name.replaceAll("-", "").toUpperCase()}${Date.now() % 100_000}`);
    await shot(page, `insight-${variant.name}-new-device`);
    await page.locator('button[type="submit"]').click();
    await expect(page.getByTestId("waiting-first-contact")).toBeVisible();
    await expect(page.getByTestId("connect-snippet")).toContainText("mosquitto_pub");
    await shot(page, `insight-${variant.name}-pending`);
  });
}
