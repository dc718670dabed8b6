// ADR 025 (issue 11): a router's event count on the dashboard is the number of its events the signed-in
// user has not read. A view-only operator's "mark all read" zeroes the operator's counts; the fleet
// admin, in another browser at the same time, keeps seeing them. The four looks of both dashboards
// are saved for a person to look at.
import { type Browser, expect, type Page, test } from "@playwright/test";
import { VirtualRouter } from "../../apps/simulator/src/index";
import { FLEET_ADMIN, OPERATOR } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { apiToken, signInAs, useEnglish } from "../support/session";
import { shot } from "../support/shots";

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
const IDENT = "E2EUNREAD1";
const KEY = "B7".repeat(32);
const EVENTS = 3;

let router: VirtualRouter | null = null;

test.afterAll(async () => {
  await router?.stop();
});

/** A signed-in person's own browser, on the dashboard with the test's router searched for. */
async function dashboardOf(browser: Browser, baseURL: string, who: { username: string; password: string }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await useEnglish(context, baseURL);
  const page = await context.newPage();
  await signInAs(page, who);
  await page.getByRole("combobox", { name: /search/i }).fill(IDENT);
  return { context, page };
}

function eventsCell(page: Page) {
  return page.locator(`[data-testid="device-row"][data-ident="${IDENT}"]`).getByTestId("device-events");
}

test("an operator's 'all read' zeroes the operator's router counts, not the admin's", async ({
  browser,
  baseURL,
  request,
}) => {
  const base = baseURL as string;
  const token = await apiToken(request);
  const created = await request.post("/api/devices/new", {
    headers: { token },
    data: { ident: IDENT, description: "Unread per user", aes_key: KEY },
  });
  expect(created.status(), await created.text()).toBe(200);
  router = new VirtualRouter({
    ident: IDENT,
    key: KEY,
    url: MQTT_URL,
    autoTick: false,
    reconnectPeriodMs: 500,
  });
  await router.start();
  for (let i = 0; i < EVENTS; i++) {
    router.publishEvent({
      kind: "hardware_event",
      level: "error",
      message: `Browser test event ${i + 1}`,
      details: { component: "modem" },
    });
  }

  const admin = await dashboardOf(browser, base, FLEET_ADMIN);
  const operator = await dashboardOf(browser, base, OPERATOR);
  await expect(eventsCell(admin.page)).toHaveText(String(EVENTS), { timeout: 30_000 });
  await expect(eventsCell(operator.page)).toHaveText(String(EVENTS));

  // The operator marks everything read on the events page, then goes back to the dashboard.
  await operator.page.goto("/events");
  // The admin's open dashboard hears of the read and reads its device list again (POST /api/devices/).
  const adminReread = admin.page.waitForResponse(
    (response) =>
      new URL(response.url()).pathname === "/api/devices/" && response.request().method() === "POST",
  );
  await operator.page.getByRole("button", { name: /mark all read/i }).click();
  await expect(operator.page.getByTestId("nav-drawer").getByText(/^new$/i)).toHaveCount(0, {
    timeout: 10_000,
  });
  await operator.page.goto("/dashboard");
  await operator.page.getByRole("combobox", { name: /search/i }).fill(IDENT);
  await expect(eventsCell(operator.page)).toHaveText("0", { timeout: 10_000 });

  // Once the admin's dashboard has read its counts again (its list's fetching bar gone): still all
  // unread for the admin.
  await adminReread;
  await expect(admin.page.locator(".MuiLinearProgress-indeterminate")).toHaveCount(0);
  await expect(eventsCell(admin.page)).toHaveText(String(EVENTS));
  await admin.page.reload();
  await admin.page.getByRole("combobox", { name: /search/i }).fill(IDENT);
  await expect(eventsCell(admin.page)).toHaveText(String(EVENTS));

  for (const variant of LOOKS) {
    for (const [label, who, count] of [
      ["admin", admin, String(EVENTS)],
      ["operator", operator, "0"],
    ] as const) {
      await who.page.setViewportSize({ width: variant.width, height: variant.height });
      await who.page.evaluate((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
      await who.context.addCookies([{ name: "locale", value: variant.locale, url: base }]);
      await who.page.goto("/dashboard");
      await who.page.getByRole("combobox", { name: /search|поиск/i }).fill(IDENT);
      const row = who.page.locator(`[data-testid="device-row"][data-ident="${IDENT}"]`);
      await expect(row).toBeVisible();
      if (variant.width > 600) await expect(eventsCell(who.page)).toHaveText(count);
      await shot(who.page, `event-counts-${label}-${variant.name}`);
    }
  }
  await admin.context.close();
  await operator.context.close();
});
