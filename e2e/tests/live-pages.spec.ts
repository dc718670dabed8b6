import {
  collectTopic,
  deriveDeviceToken,
  EXAMPLE_EVENT,
  EXAMPLE_MODEMS,
  eventTopic,
} from "@cellfleet/contract";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
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

/** Adds a router over the API; answers its id. */
async function createRouter(
  request: APIRequestContext,
  token: string,
  ident: string,
  key: string,
  description: string,
) {
  const created = await request.post("/api/devices/new", {
    headers: { token },
    data: { ident, description, aes_key: key },
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { _id: string })._id;
}

/** The router's own MQTT connection to the embedded broker, signed in with its derived token. */
async function connectRouter(ident: string, key: string): Promise<mqtt.MqttClient> {
  return mqtt.connectAsync(MQTT_URL, {
    clientId: ident,
    username: ident,
    password: await deriveDeviceToken(ident, key),
    reconnectPeriod: 0,
  });
}

test("the dashboard, a router's page and the events page follow the router's reports live", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const base = baseURL as string;
  const token = await apiToken(request);
  const deviceId = await createRouter(request, token, IDENT, KEY, "Live pages");

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

  router = await connectRouter(IDENT, KEY);
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

// A page reads, and only then is its socket ready: a change made in between went to no socket of the
// tab. The test holds the tab's hello until the router's event is stored, then lets it through; the
// events page must show the event without a reload (it is not handed over by the server: ADR 035).
test("an event stored between the events page's read and its socket's ready shows", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const base = baseURL as string;
  const token = await apiToken(request);
  const ident = "E2ELIVE02";
  const key = "C4".repeat(32);
  await createRouter(request, token, ident, key, "Live before ready");

  const context = await browser.newContext();
  await useEnglish(context, base);
  const page = await context.newPage();
  await signInFleetAdmin(page);
  // Every socket's messages to the server wait while `holding` (a slow machine may let the client's
  // 15-s wait for ready run out and open another socket: it is held the same way).
  let holding = true;
  let hellos = 0;
  const waiting: Array<() => void> = [];
  await page.routeWebSocket(/\/api\/ws\//, (socket) => {
    const server = socket.connectToServer();
    socket.onMessage((message) => {
      if (String(message).includes('"token"')) hellos++;
      const send = () => {
        try {
          server.send(message);
        } catch {
          // A socket the client gave up on meanwhile: its hello goes nowhere, as it would have.
        }
      };
      if (holding) waiting.push(send);
      else send();
    });
  });
  await page.goto("/events");
  await expect(page.getByTestId("events-table")).toBeVisible();
  await expect.poll(() => hellos).toBeGreaterThan(0);

  const reporter = await connectRouter(ident, key);
  try {
    const message = `Before ready ${Date.now()}`;
    await reporter.publishAsync(
      eventTopic(ident),
      JSON.stringify({ ...EXAMPLE_EVENT, seq: Date.now(), ts: Date.now(), message }),
      { qos: 1 },
    );
    await expect
      .poll(async () => (await request.post("/api/events/all", { headers: { token }, data: {} })).text(), {
        timeout: 30_000,
      })
      .toContain(message);
    await expect(page.getByTestId("event-row").filter({ hasText: message })).toHaveCount(0);

    holding = false;
    for (const send of waiting.splice(0)) send();
    await expect(page.getByTestId("event-row").filter({ hasText: message })).toBeVisible({ timeout: 15_000 });
  } finally {
    await reporter.endAsync();
    await context.close();
  }
});
