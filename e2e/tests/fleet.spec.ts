import { expect, type Page, test } from "@playwright/test";
import { VirtualRouter } from "../../apps/simulator/src/index";
import { LOOKS } from "../support/looks";
import { signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

// The fleet golden paths against the real server with its demo fleet (SIMULATE routers in the demo
// domain, embedded broker on E2E_MQTT_PORT), plus one router this test creates and starts itself.

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
const IDENT = "E2EROUTER1";
const KEY = "A1".repeat(32);

test.describe.configure({ mode: "serial" });

let router: VirtualRouter | null = null;

test.beforeEach(async ({ context, baseURL }) => {
  await useEnglish(context, baseURL as string);
});

test.afterAll(async () => {
  await router?.stop();
});

function row(page: Page, ident: string) {
  return page.locator(`[data-testid="device-row"][data-ident="${ident}"]`);
}

test("a simulated router appears on the dashboard and turns online", async ({ page }) => {
  await signInFleetAdmin(page);
  // Found by its ident: routers other specs made (imports among them) may fill the first page.
  await page.getByRole("combobox", { name: /search/i }).fill("SIM000001");
  await expect(row(page, "SIM000001")).toBeVisible({ timeout: 30_000 });
  await expect(row(page, "SIM000001").getByTestId("status-chip")).toHaveAttribute("data-status", "online", {
    timeout: 30_000,
  });
  await shot(page, "10-fleet-dashboard");

  // A router of our own: created through the form, pending until it connects, then online live.
  await page.goto("/devices/new/one");
  await page.getByLabel(/^ident/i).fill(IDENT);
  await page.getByLabel(/^description/i).fill("Browser test router");
  await page.getByRole("combobox", { name: /^tags/i }).fill("north");
  await page.getByRole("combobox", { name: /^tags/i }).press("Enter");
  await page.getByLabel(/^aes key/i).fill(KEY);
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/device\/[^/]+$/);
  await expect(page.getByTestId("page-title")).toHaveText(IDENT);

  await page.goto("/dashboard");
  await page.getByRole("combobox", { name: /search/i }).fill(IDENT);
  await expect(row(page, IDENT).getByTestId("status-chip")).toHaveAttribute("data-status", "pending");
  router = new VirtualRouter({
    ident: IDENT,
    key: KEY,
    url: MQTT_URL,
    intervalMs: 2000,
    reconnectPeriodMs: 500,
  });
  await router.start();
  // No reload: the socket's devices message turns the row online.
  await expect(row(page, IDENT).getByTestId("status-chip")).toHaveAttribute("data-status", "online", {
    timeout: 15_000,
  });
  await shot(page, "11-fleet-router-online");
});

test("the router's page shows its modems", async ({ page }) => {
  await signInFleetAdmin(page);
  await page.getByRole("combobox", { name: /search/i }).fill(IDENT);
  await row(page, IDENT).getByRole("link", { name: IDENT }).click();
  await expect(page).toHaveURL(/\/device\/[^/]+$/);
  const modems = page.getByTestId("modem-row");
  await expect(modems.first()).toBeVisible({ timeout: 20_000 });
  await expect(modems.first()).toContainText(/online|offline/i);
  await modems
    .first()
    .getByRole("button", { name: /show details/i })
    .click();
  await expect(page.getByTestId("modem-details").first()).toContainText("IMEI");
  await shot(page, "12-fleet-device-page");
});

test("a tag filter narrows the list", async ({ page }) => {
  await signInFleetAdmin(page);
  await expect(page.getByTestId("device-row").nth(1)).toBeVisible({ timeout: 20_000 });
  const before = await page.getByTestId("device-row").count();
  expect(before).toBeGreaterThan(1);
  await page.getByRole("combobox", { name: /^tags/i }).fill("north");
  await page.getByRole("combobox", { name: /^tags/i }).press("Enter");
  await expect(page.getByTestId("device-row")).toHaveCount(1);
  await expect(row(page, IDENT)).toBeVisible();
  await expect(page.getByTestId("active-filters")).toContainText("north");
  await shot(page, "13-fleet-tag-filter");
  await page.getByRole("button", { name: /clear filters/i }).click();
  await expect(page.getByTestId("device-row")).toHaveCount(before);
});

test("a new event lights the 'new' badge", async ({ page }) => {
  await signInFleetAdmin(page);
  await page.goto("/events");
  const drawer = page.getByTestId("nav-drawer");
  const markAll = page.getByRole("button", { name: /mark all read/i });
  await expect(page.getByTestId("event-row").first()).toBeVisible({ timeout: 20_000 });
  if (await markAll.isEnabled()) await markAll.click();
  await expect(drawer.getByText(/^new$/i)).toHaveCount(0, { timeout: 10_000 });

  // A reboot makes the router raise `router_started` when it is back.
  router?.reboot("test");
  await expect(drawer.getByText(/^new$/i)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-testid="event-row"][data-read="false"]').first()).toBeVisible();
  await shot(page, "14-fleet-events-badge");
});

test("a router that drops off reads Disconnected at once, while its status stays online", async ({
  page,
}) => {
  await signInFleetAdmin(page);
  await page.getByRole("combobox", { name: /search/i }).fill(IDENT);
  await expect(row(page, IDENT).getByTestId("status-chip")).toHaveAttribute("data-status", "online", {
    timeout: 30_000,
  });
  await expect(row(page, IDENT).getByTestId("connection")).toHaveCount(0);
  await router?.stop();
  router = null;
  // No reload: the gateway's close reaches the row through the socket within about a second.
  await expect(row(page, IDENT).getByTestId("connection")).toHaveAttribute("data-connected", "disconnected", {
    timeout: 10_000,
  });
  await expect(row(page, IDENT).getByTestId("status-chip")).toHaveAttribute("data-status", "online");
});

for (const look of LOOKS) {
  test(`the connection on the list, the router's page and the dry run, ${look.name}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: look.width, height: look.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
    await signInFleetAdmin(page);
    await context.addCookies([{ name: "locale", value: look.locale, url: baseURL as string }]);
    await page.goto("/dashboard");
    await page.getByRole("combobox", { name: /search|поиск/i }).fill(IDENT);
    await expect(row(page, IDENT).getByTestId("connection")).toHaveAttribute(
      "data-connected",
      "disconnected",
    );
    await shot(page, `fleet-connection-${look.name}-list`);
    await row(page, IDENT).getByRole("link", { name: IDENT }).click();
    await expect(page.getByTestId("device-connection")).toHaveAttribute("data-connected", "disconnected");
    await shot(page, `fleet-connection-${look.name}-device`);
    await page.goto("/commands/new");
    await page
      .getByTestId("quick-list")
      .getByText(/^(Reboot|Перезагрузка)$/)
      .click();
    await page.getByRole("combobox", { name: /^(tags|теги)/i }).fill("north");
    await page.getByRole("combobox", { name: /^(tags|теги)/i }).press("Enter");
    await page.getByTestId("dry-run-button").click();
    // The stopped router counts offline at once, though its status is online for 15 minutes.
    await expect(page.getByTestId("dry-run")).toContainText(
      look.locale === "en" ? /[1-9]\d* offline now/ : /не в сети: [1-9]/,
    );
    await shot(page, `fleet-connection-${look.name}-dry-run`);
  });
}
