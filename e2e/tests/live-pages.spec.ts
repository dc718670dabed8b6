import {
  collectTopic,
  deriveDeviceToken,
  EXAMPLE_EVENT,
  EXAMPLE_MODEMS,
  eventTopic,
} from "@cellfleet/contract";
import { expect, type Page, test } from "@playwright/test";
import mqtt from "mqtt";
import { apiToken, signInFleetAdmin, useEnglish } from "../support/session";

// Issue 28: three screens stay open on their own sockets (the dashboard, a router's page, the events
// page) while a router reports through the embedded broker, and every change shows without a reload:
// the router's new values on its page, the dashboard's row and status totals, a new event in the list.

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
const IDENT = "E2ELIVE01";
const KEY = "C3".repeat(32);

let router: mqtt.MqttClient | null = null;

test.afterAll(async () => {
  await router?.endAsync();
});

async function totalOf(page: Page, status: string): Promise<number> {
  const text = (await page.getByTestId(`total-${status}`).locator("div").last().textContent()) ?? "";
  return Number(text.replace(/\D/g, ""));
}

test("the dashboard, a router's page and the events page follow the router's reports live", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  const token = await apiToken(request);
  const created = await request.post("/api/devices/new", {
    headers: { token },
    data: { ident: IDENT, description: "Live pages", aes_key: KEY },
  });
  expect(created.status(), await created.text()).toBe(200);
  const deviceId = ((await created.json()) as { _id: string })._id;

  // Three tabs of one browser, each with its own socket, as an operator keeps them side by side.
  const context = await browser.newContext();
  await useEnglish(context, base);
  const dashboard = await context.newPage();
  await signInFleetAdmin(dashboard);
  await dashboard.getByRole("combobox", { name: /search/i }).fill(IDENT);
  const row = dashboard.locator(`[data-testid="device-row"][data-ident="${IDENT}"]`);
  await expect(row.getByTestId("status-chip")).toHaveAttribute("data-status", "pending");
  await expect(dashboard.getByTestId("total-online")).not.toContainText(/^\s*$/);
  const onlineBefore = await totalOf(dashboard, "online");

  const device = await context.newPage();
  await device.goto(`/device/${deviceId}`);
  await expect(device.getByTestId("page-title")).toHaveText(IDENT);
  const events = await context.newPage();
  await events.goto("/events");
  await expect(events.getByTestId("events-table")).toBeVisible();

  router = await mqtt.connectAsync(MQTT_URL, {
    clientId: IDENT,
    username: IDENT,
    password: await deriveDeviceToken(IDENT, KEY),
    reconnectPeriod: 0,
  });
  // Sequence numbers as a router keeps them: strictly increasing over everything it publishes (5.1).
  const firstSeq = Date.now();
  const modems = (seq: number, operator: string) =>
    JSON.stringify({
      ...EXAMPLE_MODEMS,
      seq: firstSeq + seq,
      ts: Date.now(),
      modems: [{ ...EXAMPLE_MODEMS.modems[0], operator }],
    });
  await router.publishAsync(collectTopic(IDENT, "modems"), modems(1, "LiveNet One"), { qos: 1 });

  // The router's page shows the report; the dashboard's row turns online and the totals follow.
  await expect(device.getByTestId("modem-row").first()).toContainText("LiveNet One");
  await expect(row.getByTestId("status-chip")).toHaveAttribute("data-status", "online");
  // The totals follow: they come to what the server counts now, this router among them. The demo
  // routers of the same domain may change status meanwhile, so the server's count is the measure,
  // not the count before plus one.
  const serverOnline = async () => {
    const totals = await request.post("/api/dashboard/", { headers: { token }, data: {} });
    return ((await totals.json()) as { online: number }).online;
  };
  await expect
    .poll(async () => {
      const shown = await totalOf(dashboard, "online");
      return shown === (await serverOnline()) && shown !== onlineBefore;
    })
    .toBe(true);

  // A later report's value replaces the shown one. It comes within seconds with the same signal, so
  // it changes no field of the router's row: its collects must reach the page all the same.
  await router.publishAsync(collectTopic(IDENT, "modems"), modems(2, "LiveNet Two"), { qos: 1 });
  // On a machine shared by several suites a batch can take seconds; the page must follow without a reload.
  await expect(device.getByTestId("modem-row").first()).toContainText("LiveNet Two", { timeout: 30_000 });
  // A new event appears on the events page.
  const message = `Live event ${Date.now()}`;
  await router.publishAsync(
    eventTopic(IDENT),
    JSON.stringify({ ...EXAMPLE_EVENT, seq: firstSeq + 3, ts: Date.now(), message }),
    { qos: 1 },
  );
  await expect(events.getByTestId("event-row").filter({ hasText: message })).toBeVisible();
  await expect(device.getByTestId("device-events")).toBeVisible();
  await context.close();
});
