import { fileURLToPath } from "node:url";
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
} from "@playwright/test";
import { FLEET_ADMIN, ROOT_NEW_PASSWORD } from "./accounts";
import type { LOOKS } from "./looks";

/** Root's signed-in browser state, saved by the setup project (tests/first-run.setup.ts). */
export const ROOT_STATE = fileURLToPath(new URL("../.auth/root.json", import.meta.url));

/** Makes the console speak English in this context, so tests can find texts by their English names. */
export async function useEnglish(context: BrowserContext, baseURL: string): Promise<void> {
  await context.addCookies([
    { name: "version", value: "1", url: baseURL },
    { name: "locale", value: "en", url: baseURL },
  ]);
}

/** Signs in through the login form. */
export async function signIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel(/username/i).fill(username);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole("button", { name: /^sign in$/i }).click();
}

/** Signs a fleet person in through the login form and waits for the dashboard. */
export async function signInAs(page: Page, who: { username: string; password: string }): Promise<void> {
  await signIn(page, who.username, who.password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Signs the fleet's admin (FLEET_ADMIN) in and waits for the dashboard. */
export function signInFleetAdmin(page: Page): Promise<void> {
  return signInAs(page, FLEET_ADMIN);
}

/** A session token through the API (the fleet's admin unless told), for a test's set-up calls. */
export async function apiToken(
  request: APIRequestContext,
  who: { username: string; password: string } = FLEET_ADMIN,
): Promise<string> {
  const login = await request.post("/api/login/", {
    data: { username: who.username, password: who.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  return (await login.json()).token as string;
}

/** A router as the device list answers it, with the fields the tests read. */
export interface ListedRouter {
  _id: string;
  ident: string;
  tags?: string[];
  has_backups?: boolean;
}

/** The domain's routers as the device list answers them (its first 100), header left out. */
export async function listRouters(request: APIRequestContext, token: string): Promise<ListedRouter[]> {
  const list = await request.post("/api/devices/", { data: { token, size: 100 } });
  expect(list.status(), await list.text()).toBe(200);
  return (await list.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Partial<ListedRouter>)
    .filter((row): row is ListedRouter => typeof row._id === "string" && typeof row.ident === "string");
}

/** The id of the router with this ident (the test fails when the list has none). */
export async function routerIdOf(request: APIRequestContext, token: string, ident: string): Promise<string> {
  const row = (await listRouters(request, token)).find((candidate) => candidate.ident === ident);
  expect(row?._id, ident).toBeTruthy();
  return row?._id as string;
}

/** Opens the toolbar's user menu. */
export async function openUserMenu(page: Page): Promise<void> {
  await page.getByRole("button", { name: /user menu/i }).click();
  await expect(page.getByRole("menu")).toBeVisible();
}

/** Changes a factory password on /profile and waits to be let through. */
export async function changeFactoryPassword(page: Page, current: string, next: string): Promise<void> {
  await expect(page).toHaveURL(/\/profile$/);
  await page.getByLabel(/current password/i).fill(current);
  await page.getByLabel(/^new password/i).fill(next);
  await page.getByLabel(/confirm/i).fill(next);
  await page.getByRole("button", { name: /change password/i }).click();
  await expect(page).not.toHaveURL(/\/profile$/, { timeout: 15_000 });
}

/** Signs root in through the login form (the setup project changed its factory password). */
export async function signInRoot(page: Page): Promise<void> {
  await signIn(page, "root", ROOT_NEW_PASSWORD);
  await expect(page).toHaveURL(/\/accounting$/);
}

/** A signed-in root page (the setup project's saved session) in a browser of its own, in one of the four looks. */
export async function openRootLook(
  browser: Browser,
  baseURL: string,
  look: (typeof LOOKS)[number],
): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: look.width, height: look.height },
    storageState: ROOT_STATE,
  });
  await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
  await context.addCookies([{ name: "locale", value: look.locale, url: baseURL }]);
  const page = await context.newPage();
  await page.goto("/accounting");
  await expect(page).toHaveURL(/\/accounting$/);
  return page;
}
