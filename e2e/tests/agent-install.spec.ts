// The agent's one-line install on a router's page (issue 25): an admin makes the line for a new
// router without a key, the line's link serves the install script once with the router's ident and a
// key made for it, and a view-only operator is offered no line (it would hand over the key). Saved
// in the four looks for a person to look at.
import { expect, test } from "@playwright/test";
import { OPERATOR } from "../support/accounts";
import { LOOKS } from "../support/looks";
import { signIn, signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

for (const variant of LOOKS) {
  test(`a new router's install line, made once and served once, ${variant.name}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), variant.theme);
    await useEnglish(context, baseURL as string);
    await signInFleetAdmin(page);
    const ident = `INST${variant.name.replaceAll("-", "").toUpperCase().slice(0, 10)}${Date.now() % 100_000}`;
    await page.goto("/devices/new/one");
    await page.getByLabel(/^ident/i).fill(ident);
    await page.getByRole("button", { name: /^create$/i }).click();
    await expect(page).toHaveURL(/\/device\/[^/]+$/);
    await context.addCookies([{ name: "locale", value: variant.locale, url: baseURL as string }]);
    await page.reload();

    const block = page.getByTestId("install-agent");
    await expect(block).toBeVisible();
    await expect(page.getByTestId("key-state")).toHaveText(
      variant.locale === "ru" ? /не задан/i : /not set/i,
    );
    await block.getByTestId("make-install-line").click();
    const command = block.getByTestId("install-command");
    await expect(command).toHaveText(
      /^wget -qO- 'http:\/\/127\.0\.0\.1:\d+\/api\/agent\/install\.sh\?token=[A-Za-z0-9_-]{32}' \| sh$/,
    );
    await expect(block.getByTestId("install-key-made")).toBeVisible();
    await expect(block.getByTestId("install-expires")).toContainText(/\d{2}:\d{2}/);
    // The key was made for the line; the page says it is set and still never shows it.
    await expect(page.getByTestId("key-state")).not.toHaveText(
      variant.locale === "ru" ? /не задан/i : /not set/i,
    );
    await expect(page.getByText(/[0-9A-F]{64}/)).toHaveCount(0);
    await expect(block.getByTestId("copy-install-command")).toBeVisible();
    await shot(page, `agent-install-${variant.name}`);

    // What the router fetches: the script with its ident and key, once.
    const url = /'([^']+)'/.exec((await command.textContent()) ?? "")?.[1] as string;
    const served = await page.request.get(url);
    expect(served.status()).toBe(200);
    const script = await served.text();
    expect(script).toContain(`IDENT='${ident}'`);
    expect(script).toMatch(/^KEY='[0-9A-F]{64}'$/m);
    expect((await page.request.get(url)).status()).toBe(401);
  });
}

test("an operator is offered no install line: it would hand the router its key", async ({
  page,
  context,
  baseURL,
}) => {
  await useEnglish(context, baseURL as string);
  await signIn(page, OPERATOR.username, OPERATOR.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole("combobox", { name: /search/i }).fill("SIM000001");
  const row = page.locator('[data-testid="device-row"][data-ident="SIM000001"]');
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole("link", { name: "SIM000001" }).click();
  await expect(page.getByTestId("page-title")).toHaveText("SIM000001");
  // A reporting router's connect card is folded: open it.
  await page
    .getByTestId("connect-card")
    .getByRole("button", { name: /connecting the router/i })
    .click();
  const block = page.getByTestId("install-agent");
  await expect(block.getByTestId("install-not-allowed")).toBeVisible();
  await expect(block.getByTestId("make-install-line")).toHaveCount(0);
  await shot(page, "agent-install-operator-desktop-light-en");
});
