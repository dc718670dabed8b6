// The second factor in a browser (issue 30, ADR 039): a person enrols an authenticator app on the
// profile page, keeps the ten recovery codes, and signs in again with a code the app computes and
// with a recovery code; another enrols a passkey in Chromium's virtual authenticator (DevTools'
// WebAuthn domain) at localhost and signs in with it. The second step and the profile's card are
// saved in the four looks, each signed in with a recovery code of its own.
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { generate } from "otplib";
import { LOOKS } from "../support/looks";
import { apiToken, changeFactoryPassword, useEnglish } from "../support/session";
import { shot } from "../support/shots";

test.describe.configure({ mode: "serial" });

const FACTORY = "Factory-Second-1";
const PASSWORD = "Second-Factor-Pass-2";
let appUser = "";
let secret = "";
let recoveryCodes: string[] = [];

/** A new operator of the demo domain, with a factory password (as an admin makes people). */
async function createOperator(request: APIRequestContext, prefix: string): Promise<string> {
  const token = await apiToken(request);
  const username = `${prefix}${Date.now().toString(36)}`;
  const created = await request.post("/api/user/new", {
    headers: { token },
    data: { username, full_name: "Sasha Second", role: 4, password: FACTORY, plugins: [] },
  });
  expect(created.status(), await created.text()).toBe(200);
  return username;
}

/** The password step through the form's field names (the same in both languages). */
async function passwordStep(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
}

/** Signs in for the first time and changes the factory password. */
async function firstSignIn(page: Page, username: string): Promise<void> {
  await passwordStep(page, username, FACTORY);
  await changeFactoryPassword(page, FACTORY, PASSWORD);
}

/** Signs out through /logout and waits for the sign-in page. */
async function signOut(page: Page): Promise<void> {
  await page.goto("/logout");
  await expect(page).toHaveURL(/\/login/);
}

/** The app's code `stepsAhead` periods of 30 s from now: a code is taken once, so a later one signs in again. */
function appCode(stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

test("a person enrols an authenticator app, keeps the recovery codes, and signs in with the app's code", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  appUser = await createOperator(request, "tfa");
  await useEnglish(context, baseURL as string);
  await firstSignIn(page, appUser);

  await page.goto("/profile");
  const card = page.getByTestId("second-factor-card");
  await card.getByRole("button", { name: "Set up an authenticator app" }).click();
  const enrolment = card.getByTestId("totp-enrolment");
  secret = (await enrolment.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await enrolment.getByLabel("Code from the app").fill(await appCode());
  await enrolment.getByRole("button", { name: "Confirm" }).click();
  const codes = card.getByTestId("recovery-codes");
  await expect(codes.locator("li")).toHaveCount(10);
  recoveryCodes = (await codes.locator("li").allTextContents()).map((code) => code.trim());
  await codes.getByRole("button", { name: "I have saved them" }).click();
  await expect(card.getByTestId("recovery-left")).toContainText("10 codes left");

  // Signing in again asks for the second step; a wrong code is refused, the app's next code lets in.
  await signOut(page);
  await passwordStep(page, appUser, PASSWORD);
  const step = page.getByTestId("second-factor-step");
  await expect(step).toBeVisible();
  await step.getByLabel("Code from the app").fill("000000");
  await step.getByRole("button", { name: "Confirm" }).click();
  await expect(step.getByRole("alert")).toBeVisible();
  await step.getByLabel("Code from the app").fill(await appCode(1));
  await step.getByRole("button", { name: "Confirm" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

for (const [index, look] of LOOKS.entries()) {
  test(`the second step and the profile's card, ${look.name}, signed in with a recovery code`, async ({
    browser,
    baseURL,
  }) => {
    const page = await openLook(browser, baseURL as string, look);
    await passwordStep(page, appUser, PASSWORD);
    const step = page.getByTestId("second-factor-step");
    await expect(step).toBeVisible();
    await shot(page, `second-factor-step-${look.name}`);
    // The other way: a recovery code, each used once.
    await step.locator("button.so-link").first().click();
    await step.locator('input[name="recovery_code"]').fill(recoveryCodes[index] ?? "");
    await step.locator('button[type="submit"]').click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await page.goto("/profile");
    await expect(page.getByTestId("recovery-left")).toContainText(String(9 - index));
    await shot(page, `second-factor-profile-${look.name}`);
    await page.context().close();
  });
}

test("a used recovery code never signs in again", async ({ page, context, baseURL }) => {
  await useEnglish(context, baseURL as string);
  await passwordStep(page, appUser, PASSWORD);
  const step = page.getByTestId("second-factor-step");
  await step.getByRole("button", { name: "Use a recovery code" }).click();
  await step.getByLabel("Recovery code").fill(recoveryCodes[0] ?? "");
  await step.getByRole("button", { name: "Confirm" }).click();
  await expect(step.getByRole("alert")).toBeVisible();
  await expect(page).not.toHaveURL(/\/dashboard$/);
});

test("a person adds a passkey in the virtual authenticator and signs in with it", async ({
  browser,
  request,
  baseURL,
}) => {
  // Passkeys are made for a host name (WEBAUTHN_ORIGIN is http://localhost:<port>), never an IP address.
  const origin = `http://localhost:${new URL(baseURL as string).port}`;
  const context = await browser.newContext({ baseURL: origin });
  await useEnglish(context, origin);
  const page = await context.newPage();
  const devtools = await context.newCDPSession(page);
  await devtools.send("WebAuthn.enable");
  await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const username = await createOperator(request, "key");
  await firstSignIn(page, username);
  await page.goto("/profile");
  const card = page.getByTestId("second-factor-card");
  await card.getByLabel("Name of the new passkey").fill("Virtual key");
  await card.getByRole("button", { name: "Add a passkey" }).click();
  await expect(card.getByTestId("passkey-list")).toContainText("Virtual key");
  await expect(card.getByTestId("recovery-codes").locator("li")).toHaveCount(10);
  await card.getByRole("button", { name: "I have saved them" }).click();

  await signOut(page);
  await passwordStep(page, username, PASSWORD);
  const step = page.getByTestId("second-factor-step");
  await step.getByRole("button", { name: "Use a passkey or security key" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/profile");
  await expect(page.getByTestId("passkey-list")).toContainText("last used");
  await context.close();
});

/** A fresh browser in a look: its theme and language, nobody signed in. */
async function openLook(browser: Browser, baseURL: string, look: (typeof LOOKS)[number]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: look.width, height: look.height } });
  await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
  await context.addCookies([
    { name: "version", value: "1", url: baseURL },
    { name: "locale", value: look.locale, url: baseURL },
  ]);
  return context.newPage();
}
