// Remote access (issue 29, ADR 038): an admin opens a terminal on a simulated router's shell from
// its device page, types `uname -a` and reads the answer; opens the router's web interface in a new
// tab, on an origin of its own, and signs in to it; an assistant's request waits for an admin's
// approval; the card, the terminal and the router's web interface saved in the four looks.
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { ASSISTANT, FLEET_ADMIN } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { apiToken, routerIdOf, signInAs, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const ROUTER = "SIM000002";

/** Types into the xterm.js terminal: its hidden textarea takes the keys. */
async function typeInTerminal(page: Page, text: string): Promise<void> {
  await page.getByTestId("terminal").locator("textarea").focus();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

test("an admin opens the router's terminal, types uname -a and reads the answer", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  await useEnglish(context, baseURL as string);
  const deviceId = await routerIdOf(request, await apiToken(request), ROUTER);
  await signInAs(page, FLEET_ADMIN);
  await page.goto(`/device/${deviceId}`);
  await page.getByTestId("terminal-button").click();
  const terminal = page.getByTestId("terminal");
  await expect(terminal).toContainText(`root@${ROUTER}:~#`, { timeout: 30_000 });
  await typeInTerminal(page, "uname -a");
  await expect(terminal).toContainText(`Linux ${ROUTER} `);
  await expect(terminal).toContainText("GNU/Linux");
  await expect(page.getByTestId("terminal-phase")).toHaveText("Connected to the router's shell.");
  await shot(page, "remote-access-terminal-desktop-light-en");
  await typeInTerminal(page, "exit");
  await expect(page.getByTestId("terminal-ended")).toHaveText("The session was closed.");
  await page.getByRole("button", { name: "Close" }).click();
  const ended = page.getByTestId("tunnel-session").filter({ hasText: FLEET_ADMIN.username }).first();
  await expect(ended).toHaveAttribute("data-state", "ended");
  // Its recording plays back: the answer comes again, at the pace it came.
  await ended.getByTestId("tunnel-replay").click();
  const replay = page.getByTestId("replay-terminal");
  await expect(replay).toContainText(`root@${ROUTER}:~#`, { timeout: 15_000 });
  await expect(replay).toContainText("GNU/Linux", { timeout: 15_000 });
  await expect(page.getByTestId("replay-progress")).toHaveText(/^(\d+) of \1 outputs$/, { timeout: 15_000 });
  await page.getByTestId("replay-dialog").getByRole("button", { name: "Close" }).click();
});

/** Clicks "Web interface" and answers the new tab once it shows the router's sign-in form. */
async function openWebInterface(page: Page, context: BrowserContext): Promise<Page> {
  const [tab] = await Promise.all([context.waitForEvent("page"), page.getByTestId("web-button").click()]);
  await tab.waitForURL(/\/login$/, { timeout: 30_000 });
  return tab;
}

test("an admin opens the router's web interface in a new tab, on an origin of its own, and signs in", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  await useEnglish(context, baseURL as string);
  const deviceId = await routerIdOf(request, await apiToken(request), ROUTER);
  await signInAs(page, FLEET_ADMIN);
  await page.goto(`/device/${deviceId}`);
  const tab = await openWebInterface(page, context);
  const origin = new URL(tab.url()).origin;
  expect(origin).not.toBe(new URL(baseURL as string).origin);
  // Another origin: the console's stored session is not there, and the tab cannot reach back to it.
  expect(await tab.evaluate(() => [localStorage.length, window.opener === null])).toEqual([0, true]);
  await tab.getByLabel("Password").fill("admin");
  await tab.getByRole("button", { name: "Sign in" }).click();
  await expect(tab.locator("#ident")).toHaveText(ROUTER);
  await expect(tab.getByText("Signed in as root.")).toBeVisible();
  // The router's login cookie works on a reload, too.
  await tab.reload();
  await expect(tab.locator("#ident")).toHaveText(ROUTER);
  await shot(tab, "remote-access-web-signed-in-desktop-light-en");
  const session = page.getByTestId("tunnel-session").filter({ hasText: "Web interface" }).first();
  await expect(session).toHaveAttribute("data-state", "open");
  await session.getByTestId("tunnel-end").click();
  await expect(session).toHaveAttribute("data-state", "ended");
  await expect(session).toContainText("The session was ended.");
  await tab.close();
});

test("an assistant's request waits for approval; the admin approves it for the duration asked", async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(90_000);
  const deviceId = await routerIdOf(request, await apiToken(request), ROUTER);
  const assistantContext = await browser.newContext();
  await useEnglish(assistantContext, baseURL as string);
  const assistantPage = await assistantContext.newPage();
  await signInAs(assistantPage, ASSISTANT);
  await assistantPage.goto(`/device/${deviceId}`);
  await assistantPage.getByTestId("terminal-button").click();
  const waiting = assistantPage.getByTestId("tunnel-session").filter({ hasText: ASSISTANT.username }).first();
  await expect(waiting).toHaveAttribute("data-state", "waiting");
  await expect(waiting).toContainText("waits for approval");
  // Nobody approves their own: the assistant sees no Approve button on it.
  await expect(waiting.getByTestId("tunnel-approve")).toHaveCount(0);

  const adminContext = await browser.newContext();
  await useEnglish(adminContext, baseURL as string);
  const adminPage = await adminContext.newPage();
  await signInAs(adminPage, FLEET_ADMIN);
  await adminPage.goto(`/device/${deviceId}`);
  const toApprove = adminPage.getByTestId("tunnel-session").filter({ hasText: ASSISTANT.username }).first();
  await expect(toApprove.getByTestId("tunnel-approve")).toHaveText("Approve for 30 min");
  await toApprove.getByTestId("tunnel-approve").click();
  // The assistant's page follows `peers`: the session is approved, and its author opens it.
  await expect(waiting).toHaveAttribute("data-state", "approved");
  await waiting.getByTestId("tunnel-open").click();
  await expect(assistantPage.getByTestId("terminal")).toContainText(`root@${ROUTER}:~#`, { timeout: 30_000 });
  // The admin ends it now from the list.
  const open = adminPage.getByTestId("tunnel-session").filter({ hasText: ASSISTANT.username }).first();
  await expect(open).toHaveAttribute("data-state", "open");
  await open.getByTestId("tunnel-end").click();
  await expect(assistantPage.getByTestId("terminal-ended")).toHaveText("The session was ended.");
  await assistantContext.close();
  await adminContext.close();
});

for (const variant of LOOKS) {
  test(`remote access, ${variant.name}`, async ({ page, context, baseURL, request }) => {
    test.setTimeout(90_000);
    const deviceId = await routerIdOf(request, await apiToken(request), ROUTER);
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInAs(page, FLEET_ADMIN);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.goto(`/device/${deviceId}`);
    const card = page.getByTestId("remote-access");
    await expect(card.getByTestId("tunnel-session").first()).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await shot(page, `remote-access-${variant.name}-card`);
    await page.getByTestId("terminal-button").click();
    await expect(page.getByTestId("terminal")).toContainText(`root@${ROUTER}:~#`, { timeout: 30_000 });
    await typeInTerminal(page, "uname -a");
    await expect(page.getByTestId("terminal")).toContainText("GNU/Linux");
    await shot(page, `remote-access-${variant.name}-terminal`);
    await typeInTerminal(page, "exit");
    await expect(page.getByTestId("terminal-ended")).toBeVisible();
    await page.getByTestId("terminal-dialog").getByRole("button").first().click();
    // The session just ended, newest first among the ended ones: its replay.
    await card
      .locator('[data-testid="tunnel-session"][data-state="ended"]')
      .first()
      .getByTestId("tunnel-replay")
      .click();
    await expect(page.getByTestId("replay-terminal")).toContainText("GNU/Linux", { timeout: 15_000 });
    await shot(page, `remote-access-${variant.name}-replay`);
    await page.keyboard.press("Escape");
    const tab = await openWebInterface(page, context);
    await tab.setViewportSize({ width: variant.width, height: variant.height });
    await tab.getByLabel("Password").fill("admin");
    await tab.getByRole("button", { name: "Sign in" }).click();
    await expect(tab.locator("#ident")).toHaveText(ROUTER);
    await shot(tab, `remote-access-${variant.name}-web`);
    await tab.close();
    const web = card.locator('[data-testid="tunnel-session"][data-state="open"]').first();
    await expect(web).toBeVisible();
    await web.scrollIntoViewIfNeeded();
    await shot(page, `remote-access-${variant.name}-web-card`);
    await web.getByTestId("tunnel-end").click();
  });
}
