// Software (firmware) rules (issue 16): root adds a rule whose URL a loopback HTTP server in this
// spec answers; the server fetches the file and the list shows it Ready with its series, models and
// file; root starts a staged rollout over the simulated demo routers and watches, without a reload
// or a poll, the canary complete and the first wave start (the socket's `software` pushes); then the
// list and the rules in the four looks, for a person to look at.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, type Request, test } from "@playwright/test";
import { LOOKS, sidewaysOverflow } from "../support/looks";
import { acceptOfferedRollout } from "../support/rollout-offers";
import { openRootLook, signInRoot, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const FIRMWARE = Buffer.alloc(256 * 1024, 5);
let server: Server;
let base = "";
let ruleId = "";
let liveRuleId = "";
/** The demo fleet's models, so a rollout has routers to update. */
const DEMO_MODELS = ["RUTX11", "RUT241", "RUTX50", "LtAP LTE6", "R1510", "R1520"];

test.beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url?.startsWith("/missing/")) return void response.writeHead(404).end();
    if (request.url?.startsWith("/slow/")) {
      // Half the file, then a pause: the rule pages show the fetch under way before Ready.
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.write(FIRMWARE.subarray(0, FIRMWARE.length / 2));
      return void setTimeout(() => response.end(FIRMWARE.subarray(FIRMWARE.length / 2)), 12_000);
    }
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
  request,
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
  for (const model of DEMO_MODELS) {
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
  // Starting asks once, naming how many routers in how many domains (issue 27).
  await expect(page.getByTestId("confirm-dialog")).toContainText(/Routers: \d+, in domains: \d+/);
  await page.getByTestId("confirm-action").click();
  await expect(page.getByTestId("rollout-status")).toHaveText("Running");
  await expect(page.getByTestId("rollout-progress").getByRole("row", { name: /Canary/ })).toBeVisible();
  // Nothing goes to the demo domain before its admin accepts (ADR 031); then the window holds it.
  await expect(page.getByTestId("rollout-held-offer")).toBeVisible();
  await acceptOfferedRollout(request, "RUT9_R_00.07.08");
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

/** Opens the rule's page and waits for its first reads (the rule, its rollouts); then records every re-read. */
async function watchRule(page: Page, id: string): Promise<string[]> {
  const rulePath = `/api/software/${id}`;
  const isRead = (url: string) => {
    const path = new URL(url).pathname;
    return path === rulePath || path === `${rulePath}/rollouts` || path.startsWith("/api/rollout/");
  };
  // Off the app first, so no answer to an earlier page's read is taken for this page's.
  await page.goto("about:blank");
  const loaded = Promise.all([
    page.waitForResponse((response) => new URL(response.url()).pathname === rulePath),
    page.waitForResponse((response) => response.url().endsWith(`${rulePath}/rollouts`)),
  ]);
  // The tab's socket: on its first `ready` the page reads again (pushes before it never reached the
  // tab); that read is the page's opening, not a poll, so the count begins once it has ended.
  let isReady = false;
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      if (String(payload).includes('"type":"ready"')) isReady = true;
    }),
  );
  const underWay = new Set<Request>();
  let lastReadAt = Date.now();
  const began = (request: Request) => {
    if (!isRead(request.url())) return;
    underWay.add(request);
    lastReadAt = Date.now();
  };
  const ended = (request: Request) => underWay.delete(request);
  page.on("request", began);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  await page.goto(`/software/${id}`);
  await loaded;
  await expect.poll(() => isReady && underWay.size === 0 && Date.now() - lastReadAt > 500).toBe(true);
  page.off("request", began);
  const rereads: string[] = [];
  page.on("request", (request) => {
    if (isRead(request.url())) rereads.push(new URL(request.url()).pathname);
  });
  return rereads;
}

test("root starts a staged rollout and watches the canary complete and the first wave start, live", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(180_000);
  // Four root pages, one per look, all watching the same rule; the first (English) acts.
  const pages: Page[] = [];
  for (const look of LOOKS) pages.push(await openRootLook(browser, baseURL as string, look));
  const main = pages[0] as Page;
  await main.goto("/software/new");
  await main.getByLabel("Name").fill("RUT9 next");
  // Another version than the first rule's, which the cancelled rollout's canary may run by now; a
  // slow answer, so the fetch is seen under way and then Ready.
  await main.getByLabel("URL").fill(`${base}/slow/RUT9_R_00.07.09.bin`);
  const models = main.getByLabel("Models");
  for (const model of DEMO_MODELS) {
    await models.fill(model);
    await models.press("Enter");
  }
  await main.getByRole("button", { name: /^create$/i }).click();
  await expect(main).toHaveURL(/\/software\/[0-9a-f-]{36}$/);
  liveRuleId = main.url().split("/").pop() as string;
  // From here on no page is reloaded: what they show comes from the socket, not from polls.
  const rereads: string[][] = [];
  rereads.push(await watchRule(main, liveRuleId));
  await expect(main.getByTestId("software-status").last()).toHaveText(/Pending|Accepted/);
  for (const page of pages.slice(1)) rereads.push(await watchRule(page, liveRuleId));
  for (const page of pages)
    await expect(page.getByTestId("rollout-start"), "Ready, so the start shows").toBeVisible({
      timeout: 40_000,
    });
  await expect(main.getByTestId("software-status").last()).toHaveText("Ready");
  expect(rereads.flat(), "the fetch status came by push").toEqual([]);

  // A 5% canary (one router of the demo fleet's) and one wave of up to 50: the rest. The start's
  // answer makes the acting page read the rule's rollouts once; everything after comes by push.
  // The start asks first, with the dry run's figures: looked at in every look, left by Cancel on the
  // watching pages (a dry run is no read of the rule), confirmed on the acting one.
  for (const [index, page] of pages.entries()) {
    await page.getByTestId("rollout-start").click();
    await expect(page.getByTestId("confirm-dialog")).toContainText(/\d/);
    await shot(page, `software-rollout-confirm-${LOOKS[index]?.name}`);
    if (page === main) continue;
    await page
      .getByTestId("confirm-dialog")
      .getByRole("button", { name: /^(cancel|отмена)$/i })
      .click();
    await expect(page.getByTestId("confirm-dialog")).toBeHidden();
  }
  const startReread = main.waitForResponse((response) => response.url().endsWith("/rollouts"));
  await main.getByTestId("confirm-action").click();
  await startReread;
  await expect(main.getByTestId("rollout-status")).toHaveText("Running");
  rereads[0]?.splice(0);
  // The demo domain's admin accepts it (ADR 031): its answer reaches root's pages by push too.
  await acceptOfferedRollout(request, "RUT9_R_00.07.09");
  // Rows: the header, the canary, wave 1. Cells: stage, waiting, updating, succeeded, failed, skipped.
  const rows = (page: Page) => page.getByTestId("rollout-progress").getByRole("row");
  const canary = rows(main).filter({ hasText: "Canary" });
  const wave = rows(main).filter({ hasText: "Wave 1" });
  await expect(canary.getByRole("cell").nth(2), "the canary's fw_update sent").toHaveText("1", {
    timeout: 30_000,
  });
  await expect(canary.getByRole("cell").nth(3), "the canary came back on the version").toHaveText("1", {
    timeout: 60_000,
  });
  await expect(wave.getByRole("cell").nth(2), "the first wave started").not.toHaveText("0", {
    timeout: 30_000,
  });
  await expect(wave).toHaveAttribute("class", /Mui-selected/);
  // Every look saw the same, live: the canary succeeded and nothing of the waves waits any more, but a
  // demo router whose drifting signal is at the cell edge now: held, and counted in the held chips. A
  // router already at the cell edge when the rollout started waits in the link stage's row instead of
  // wave 1's (ADR 021), so every stage's waiting is summed.
  const heldOf = async (page: Page) =>
    (await page.locator('[data-testid^="rollout-held-"]').allTextContents()).reduce(
      (sum, chip) => sum + Number(chip.split(": ").pop()),
      0,
    );
  for (const [index, page] of pages.entries()) {
    await expect(rows(page).nth(1).getByRole("cell").nth(3)).toHaveText("1");
    const waitingOf = async () =>
      (await rows(page).locator("td:nth-child(2)").allTextContents()).reduce(
        (sum, cell) => sum + Number(cell),
        0,
      );
    await expect.poll(async () => (await waitingOf()) - (await heldOf(page))).toBe(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `software-live-${LOOKS[index]?.name}`);
  }
  expect(rereads.flat(), "the progress came by push").toEqual([]);
  for (const page of pages) await page.context().close();
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
      [`/software/${liveRuleId}`, "rollout"],
    ] as const) {
      await page.goto(path);
      if (name !== "new") await expect(page.getByTestId("software-status").first()).toBeVisible();
      // A phone shows the list's details under each rule's name: nothing scrolls sideways.
      if (name === "list") await expect.poll(() => sidewaysOverflow(page, "software-table")).toBe(0);
      if (name === "rollout") await expect(page.getByTestId("rollout-progress")).toBeVisible();
      if (name === "rule") {
        await page.getByTestId("rollout-dry-run").click();
        await expect(page.getByText(/RUT9_R_00\.07\.08$/).first()).toBeVisible();
        await expect(page.getByTestId("rollout-status")).toBeVisible();
      }
      await shot(page, `software-${look.name}-${name}`);
    }
  });
}
