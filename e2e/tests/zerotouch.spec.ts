// Zero-touch configurations (issue 16): an admin creates a configuration and sees its secret once; a
// router built for it joins by itself over MQTT; one outside its ranges waits in the adoption list,
// where the admin accepts it; then the screens in the four looks, for a person to look at.
import { createHmac } from "node:crypto";
import { expect, type Page, test } from "@playwright/test";
import { VirtualRouter } from "../../apps/simulator/src/index";
import { FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { signIn, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
const state = { configId: "", keyId: "", secret: "" };
const routers: VirtualRouter[] = [];

test.afterAll(async () => {
  await Promise.all(routers.map((router) => router.stop()));
});

async function signInAdmin(page: Page) {
  await signIn(page, FLEET_ADMIN.username, FLEET_ADMIN.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A router built for the configuration: the formulas of docs/device-protocol.md, "Zero-touch join". */
function zeroTouchRouter(ident: string, serial: string): VirtualRouter {
  const username = `zt1:${state.keyId}:RUT955:${serial}:`;
  const password = createHmac("sha256", Buffer.from(state.secret, "hex"))
    .update(`cellfleet/zt1/${ident}/${username}`)
    .digest("hex");
  const router = new VirtualRouter({
    ident,
    key: "0".repeat(64),
    url: MQTT_URL,
    autoTick: false,
    reconnectPeriodMs: 500,
    credentials: { username, password },
  });
  routers.push(router);
  return router;
}

test("an admin creates a configuration; a matching router joins, another waits and is accepted", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(90_000);
  await useEnglish(context, baseURL as string);
  await signInAdmin(page);
  await page.goto("/accounting");
  await page.getByTestId("hub-zeroTouch").click();
  await expect(page).toHaveURL(/\/zerotouch$/);
  await page.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page).toHaveURL(/\/zerotouch\/config\/new$/);
  await page.getByTestId("zt-name").fill("North warehouse batch");
  await page.getByLabel("Models").fill("RUT955");
  await page.getByLabel("Serial ranges").fill("1100000 1199999");
  await page.getByTestId("zt-save").click();
  await expect(page.getByTestId("zt-secret")).toHaveText(/^[0-9a-f]{64}$/);
  state.secret = (await page.getByTestId("zt-secret").textContent()) as string;
  state.keyId = (await page.getByTestId("zt-key-id").textContent()) as string;
  await page.getByTestId("zt-secret-close").click();
  await expect(page).toHaveURL(/\/zerotouch\/config\/[\w-]+$/);
  state.configId = page.url().split("/").pop() as string;

  const joining = zeroTouchRouter("ZTNORTH1100042", "1100042");
  await joining.start();
  await expect.poll(() => joining.stats.connected, { timeout: 15_000 }).toBe(true);
  const waiting = zeroTouchRouter("ZTSOUTH2200007", "2200007");
  await waiting.start();
  await page.goto("/zerotouch/adoption");
  await expect(page.getByTestId("adoption-ZTSOUTH2200007")).toBeVisible({ timeout: 15_000 });
  await page.getByTestId("adoption-ZTSOUTH2200007").getByRole("button", { name: "Accept" }).click();
  await page.getByTestId("adoption-accept").click();
  await expect(page.getByTestId("adoption-ZTSOUTH2200007")).toBeHidden();
  await expect.poll(() => waiting.stats.connected, { timeout: 15_000 }).toBe(true);
  await page.goto("/zerotouch");
  await expect(page.getByTestId("zerotouch-configs")).toContainText("North warehouse batch");
});

for (const variant of LOOKS) {
  test(`zero-touch screens, ${variant.name}`, async ({ page, context, baseURL }) => {
    test.setTimeout(90_000);
    // One more router waiting in each look, beside the one accepted.
    const pending = zeroTouchRouter(`ZTWAIT${variant.width}${variant.theme.length}`, "3300001");
    await pending.start();
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInAdmin(page);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    const snap = async (name: string) => {
      await shot(page, `zerotouch-${variant.name}-${name}`);
    };
    await page.goto("/zerotouch");
    await expect(page.getByTestId("zerotouch-configs")).toBeVisible();
    await snap("configs");
    await page.goto(`/zerotouch/config/${state.configId}`);
    await expect(page.getByTestId("zt-summary")).toBeVisible();
    await snap("config");
    await page.goto("/zerotouch/adoption");
    await expect(page.getByTestId("adoption-list")).toBeVisible({ timeout: 15_000 });
    await snap("adoption");
    await page.getByTestId("adoption-filter").click();
    await page.getByRole("option").last().click();
    await expect(page.getByTestId("adoption-list")).toBeVisible();
    await snap("adoption-all");
    // Last: a new secret in its dialog (routers of the next look sign with it).
    await page.goto(`/zerotouch/config/${state.configId}`);
    await page.getByTestId("zt-renew").click();
    await expect(page.getByTestId("zt-secret")).toHaveText(/^[0-9a-f]{64}$/);
    state.secret = (await page.getByTestId("zt-secret").textContent()) as string;
    await snap("secret");
    await page.getByTestId("zt-secret-close").click();
    await expect(page.getByTestId("zt-secret")).toBeHidden();
  });
}
