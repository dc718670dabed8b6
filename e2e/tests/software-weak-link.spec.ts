// A staged rollout's weak-link parts (issue 16: "routers at cell edge, on their backup SIM or roaming
// wait for a better link"): four routers this spec creates and starts itself, of a model no other
// router has, one on a good link and three on a weak one (cell edge, backup SIM, roaming) as their
// `collect/modems` reports say. The dry run lists the three as waiting for a better link; the started
// rollout updates the good one, holds the others with their reasons in a last stage named for what
// they wait for, and says only they remain. The rule page is saved in the four looks, for a person to
// look at.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { VirtualRouter } from "../../apps/simulator/src/index";
import { LOOKS } from "../support/looks";
import { acceptOfferedRollout } from "../support/rollout-offers";
import { apiToken, openRootLook, signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const MQTT_URL = `mqtt://127.0.0.1:${process.env.E2E_MQTT_PORT}`;
/** A model of these routers only, so the rule takes none of the demo fleet's. */
const MODEL = "RUTM50";
const VERSION = "RUTM_R_00.01.05";
const FIRMWARE = Buffer.alloc(64 * 1024, 9);
/** The RSSI (dBm) a report carries for a CSQ: CSQ 25 is a good signal, below 10 the cell edge. */
const rssiOf = (csq: number) => csq * 2 - 113;

type Link = "good" | "cellEdge" | "backupSim" | "roaming";
const ROUTERS: ReadonlyArray<{ ident: string; key: string; link: Link }> = [
  { ident: "E2ELINKGOOD", key: "C1".repeat(32), link: "good" },
  { ident: "E2ELINKEDGE", key: "C2".repeat(32), link: "cellEdge" },
  { ident: "E2ELINKSIM2", key: "C3".repeat(32), link: "backupSim" },
  { ident: "E2ELINKROAM", key: "C4".repeat(32), link: "roaming" },
];

let server: Server;
let ruleId = "";
const routers: VirtualRouter[] = [];

test.beforeAll(async () => {
  server = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "application/octet-stream" }).end(FIRMWARE),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  for (const router of routers) await router.stop();
  await new Promise((resolve) => server.close(resolve));
});

/** A router of MODEL on an old version whose reports put it on this link (its state set before it connects). */
function weakLinkRouter(ident: string, key: string, link: Link): VirtualRouter {
  const router = new VirtualRouter({ ident, key, url: MQTT_URL, autoTick: false, reconnectPeriodMs: 500 });
  router.state.model = { ...router.state.model, model: MODEL };
  router.state.firmware = "RUTM_R_00.01.01";
  const modem = router.state.modems.find((each) => each.primary) ?? router.state.modems[0];
  if (!modem) throw new Error(`${ident} has no modem`);
  modem.online = true;
  modem.roaming = link === "roaming";
  modem.radio = { ...modem.radio, rssi: rssiOf(link === "cellEdge" ? 5 : 25) };
  if (link === "backupSim") {
    // Online on the second SIM slot of its primary modem: a card in it, as a dual-SIM router has.
    const first = modem.sims[0];
    if (!first) throw new Error(`${ident} has no SIM`);
    modem.sims[1] ??= { ...first, iccid: `${first.iccid.slice(0, -1)}9` };
    modem.activeSim = 2;
  } else {
    modem.activeSim = 1;
  }
  return router;
}

test("weak-link routers wait for a better link: the dry run lists them, the rollout holds them with their reasons", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  const token = await apiToken(request);
  for (const { ident, key, link } of ROUTERS) {
    const created = await request.post("/api/devices/new", {
      headers: { token },
      data: { ident, description: `Rollout link: ${link}`, aes_key: key },
    });
    expect(created.status(), await created.text()).toBe(200);
    const router = weakLinkRouter(ident, key, link);
    routers.push(router);
    await router.start();
  }

  await useEnglish(context, baseURL as string);
  await signInRoot(page);
  await page.goto("/software/new");
  await page.getByLabel("Name").fill("RUTM weak links");
  await page
    .getByLabel("URL")
    .fill(`http://127.0.0.1:${(server.address() as AddressInfo).port}/fw/${VERSION}.bin`);
  await page.getByLabel("Models").fill(MODEL);
  await page.getByLabel("Models").press("Enter");
  await page.getByRole("button", { name: /^create$/i }).click();
  await expect(page).toHaveURL(/\/software\/[0-9a-f-]{36}$/);
  ruleId = page.url().split("/").pop() as string;
  // The fetch is a job on a shared machine: as long as software.spec.ts gives it.
  await expect(page.getByTestId("software-status").last()).toHaveText("Ready", { timeout: 40_000 });

  // The dry run, once every router's hello and modems report are in: the good one is the canary,
  // the three others will wait for a better link, each with its reason.
  const waiting = page.getByTestId("rollout-waiting");
  const canary = page.getByTestId("rollout-stage").filter({ hasText: "Canary" });
  await expect(async () => {
    await page.getByTestId("rollout-dry-run").click();
    await expect(waiting).toContainText("routers: 3", { timeout: 2_000 });
    await expect(canary).toContainText("E2ELINKGOOD", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(waiting).toContainText("Will wait for a better link (after the waves)");
  // Each chip names the router, its domain (ADR 031) and its reason.
  await expect(waiting.getByText(/^E2ELINKEDGE · .+ · cell edge$/)).toBeVisible();
  await expect(waiting.getByText(/^E2ELINKSIM2 · .+ · on backup SIM$/)).toBeVisible();
  await expect(waiting.getByText(/^E2ELINKROAM · .+ · roaming$/)).toBeVisible();

  // Started: the good router is updated; the three are held with their reasons, and the card says
  // that only they remain.
  await page.getByTestId("rollout-start").click();
  await page.getByTestId("confirm-action").click();
  await expect(page.getByTestId("rollout-status")).toHaveText("Running");
  // The routers' (demo) domain accepts it: nothing is sent to a domain before (ADR 031).
  await acceptOfferedRollout(request, VERSION);
  await expect(page.getByTestId("rollout-held-cellEdge")).toHaveText("cell edge: 1");
  await expect(page.getByTestId("rollout-held-backupSim")).toHaveText("on backup SIM: 1");
  await expect(page.getByTestId("rollout-held-roaming")).toHaveText("roaming: 1");
  await expect(page.getByTestId("rollout-only-held")).toContainText(
    "Only routers waiting for a better link remain",
    { timeout: 60_000 },
  );
  const canaryRow = page.getByTestId("rollout-progress").getByRole("row").filter({ hasText: "Canary" });
  await expect(canaryRow.getByRole("cell").nth(3), "the good router came back on the version").toHaveText(
    "1",
  );
  // The three are the last stage, named for what they wait for, not as one more wave.
  const stageCells = page.getByTestId("rollout-progress").getByRole("row").locator("td:first-child");
  await expect(stageCells).toHaveText(["Canary", "Waiting for a better link"]);
  const linkRow = page
    .getByTestId("rollout-progress")
    .getByRole("row")
    .filter({ hasText: "Waiting for a better link" });
  await expect(linkRow.getByRole("cell").nth(1), "the three held routers wait in it").toHaveText("3");
  await expect(page.getByTestId("rollout-status")).toHaveText("Running");
});

for (const look of LOOKS) {
  test(`the rollout's weak-link parts ${look.name}`, async ({ browser, baseURL }) => {
    const page = await openRootLook(browser, baseURL as string, look);
    await page.goto(`/software/${ruleId}`);
    await expect(page.getByTestId("rollout-only-held")).toBeVisible();
    for (const hold of ["cellEdge", "backupSim", "roaming"])
      await expect(page.getByTestId(`rollout-held-${hold}`)).toBeVisible();
    await expect(page.getByTestId("rollout-link-stage")).toHaveText(
      look.locale === "ru" ? "Ждут лучшей связи" : "Waiting for a better link",
    );
    // The dry run again: the updated router is skipped now, the three still wait.
    await page.getByTestId("rollout-dry-run").click();
    await expect(page.getByTestId("rollout-waiting")).toBeVisible();
    await expect(page.getByTestId("rollout-skipped")).toBeVisible();
    // Back to the top, so the phone's app bar (hidden while scrolled) is in the picture.
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `software-weak-link-${look.name}`);
    await page.context().close();
  });
}
