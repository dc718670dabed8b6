// A root rollout offered to a domain (issue 27 item 1, ADR 031): root starts a rollout over a router
// of the demo domain that this spec creates (a model no other router has); the domain has not
// accepted, so the card shows the domain "not answered" and the router held; the domain's admin sees
// the offer in Settings and accepts it; root's card shows it accepted and the router updated. The
// offer and the card are saved in the four looks, for a person to look at.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { VirtualRouter } from "../../apps/simulator/src/index";
import { LOOKS } from "../support/looks";
import { apiToken, openRootLook, signInFleetAdmin, signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
const MODEL = "RUTM51";
const VERSION = "RUTM_R_00.02.01";
const ROUTER = { ident: "E2EOFFER1", key: "D1".repeat(32) };
const FIRMWARE = Buffer.alloc(64 * 1024, 3);

let server: Server;
let router: VirtualRouter;
let ruleId = "";

test.beforeAll(async () => {
  server = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(FIRMWARE),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  await router?.stop();
  await new Promise((resolve) => server.close(resolve));
});

/** The fleet admin's page in a look: signed in with the English form, then shown in the look's language. */
async function openAdminLook(browser: Browser, baseURL: string, look: (typeof LOOKS)[number]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: look.width, height: look.height } });
  await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
  await useEnglish(context, baseURL);
  const page = await context.newPage();
  await signInFleetAdmin(page);
  await context.addCookies([{ name: "locale", value: look.locale, url: baseURL }]);
  return page;
}

test("the domain's admin accepts a rollout root offered it; only then is its router updated", async ({
  page,
  context,
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(150_000);
  const token = await apiToken(request);
  const created = await request.post("/api/devices/new", {
    headers: { token },
    data: { ident: ROUTER.ident, description: "Rollout offer", aes_key: ROUTER.key },
  });
  expect(created.status(), await created.text()).toBe(200);
  router = new VirtualRouter({ ...ROUTER, url: MQTT_URL, autoTick: false, reconnectPeriodMs: 500 });
  router.state.model = { ...router.state.model, model: MODEL };
  router.state.firmware = "RUTM_R_00.02.00";
  const modem = router.state.modems.find((each) => each.primary) ?? router.state.modems[0];
  if (modem) {
    modem.online = true;
    modem.roaming = false;
    modem.activeSim = 1;
    modem.radio = { ...modem.radio, rssi: 25 * 2 - 113 };
  }
  await router.start();

  await useEnglish(context, baseURL as string);
  await signInRoot(page);
  await page.goto("/software/new");
  await page.getByLabel("Name").fill("RUTM offered");
  await page
    .getByLabel("URL")
    .fill(`http://127.0.0.1:${(server.address() as AddressInfo).port}/fw/${VERSION}.bin`);
  await page.getByLabel("Models").fill(MODEL);
  await page.getByLabel("Models").press("Enter");
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/software\/[0-9a-f-]{36}$/);
  ruleId = page.url().split("/").pop() as string;
  await expect(page.getByTestId("software-status").last()).toHaveText("Ready", { timeout: 40_000 });

  // The dry run names the router's domain and the domain it would be offered to: its admin is asked.
  const domains = page.getByTestId("rollout-dry-domains");
  await expect(async () => {
    await page.getByTestId("rollout-dry-run").click();
    await expect(domains).toContainText("routers: 1; its admin is asked", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId("rollout-stage").getByText(`${ROUTER.ident} · `)).toBeVisible();
  await expect(page.getByTestId("rollout-domain-choice")).toContainText("its admin is asked");
  await shot(page, "software-offers-dry-run-desktop-light-en");

  await page.getByTestId("rollout-start").click();
  await expect(page.getByTestId("confirm-dialog")).toContainText("Domains whose admin is asked first: 1");
  await page.getByTestId("confirm-action").click();
  await expect(page.getByTestId("rollout-status")).toHaveText("Running");
  const domainRow = page.getByTestId("rollout-domain-row");
  await expect(domainRow).toContainText("Not answered");
  await expect(page.getByTestId("rollout-held-offer")).toHaveText("domain has not accepted: 1");

  // The demo domain's admin: the offer waits in Settings, in every look; accepted, the router is updated.
  for (const look of LOOKS) {
    const viewer = await openAdminLook(browser, baseURL as string, look);
    await viewer.goto("/settings");
    const waiting = viewer.getByTestId("rollout-offer").filter({ hasText: VERSION });
    await expect(waiting.getByTestId("rollout-offer-accept")).toBeVisible();
    await viewer.getByTestId("rollout-offers").scrollIntoViewIfNeeded();
    await shot(viewer, `software-offers-waiting-${look.name}`);
    await viewer.context().close();
  }
  const admin = await openAdminLook(browser, baseURL as string, LOOKS[0]);
  await admin.goto("/settings");
  const offer = admin.getByTestId("rollout-offer").filter({ hasText: VERSION });
  await expect(offer.getByTestId("rollout-offer-state")).toHaveText("Waiting for your answer");
  await offer.getByTestId("rollout-offer-from").fill("");
  await offer.getByTestId("rollout-offer-to").fill("");
  await offer.getByTestId("rollout-offer-accept").click();
  await expect(offer.getByTestId("rollout-offer-state")).toHaveText("Accepted");
  await expect(offer).toContainText("Routers are updated at any time.");
  await admin.context().close();

  await expect(domainRow).toContainText("Accepted");
  await expect(page.getByTestId("rollout-status")).toHaveText("Completed", { timeout: 60_000 });
  await expect(domainRow.getByRole("cell").nth(5), "the router updated").toHaveText("1");
});

for (const look of LOOKS) {
  test(`the offer and the domains of a rollout ${look.name}`, async ({ browser, baseURL }) => {
    const admin = await openAdminLook(browser, baseURL as string, look);
    await admin.goto("/settings");
    await expect(admin.getByTestId("rollout-offer").filter({ hasText: VERSION })).toBeVisible();
    await admin.getByTestId("rollout-offers").scrollIntoViewIfNeeded();
    await shot(admin, `software-offers-settings-${look.name}`);
    await admin.context().close();

    const root = await openRootLook(browser, baseURL as string, look);
    await root.goto(`/software/${ruleId}`);
    await expect(root.getByTestId("rollout-domains")).toBeVisible();
    await root.evaluate(() => window.scrollTo(0, 0));
    await shot(root, `software-offers-rule-${look.name}`);
    await root.context().close();
  });
}
