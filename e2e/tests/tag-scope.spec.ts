// Issue 30, ADR 041: an admin limits a new operator to the routers of one tag on the user's page,
// and the operator's dashboard holds those routers only: its totals and its list. Both screens are
// saved in the four looks (desktop and phone, light and dark, Russian and English).
import { type Browser, expect, type Page, test } from "@playwright/test";
import { LOOKS } from "../support/looks";
import {
  apiToken,
  changeFactoryPassword,
  listRouters,
  signIn,
  signInFleetAdmin,
  useEnglish,
} from "../support/session";
import { shot } from "../support/shots";

const PASSWORD = "Tagged-Pass-1x";
const NEW_PASSWORD = "Tagged-Pass-2y";

async function lookPage(browser: Browser, baseURL: string, look: (typeof LOOKS)[number]): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width: look.width, height: look.height } });
  await context.addInitScript((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
  // Signed in in English (the helpers find the form by its English labels), then the look's language.
  await useEnglish(context, baseURL);
  return context.newPage();
}

async function inLanguage(page: Page, baseURL: string, locale: string): Promise<void> {
  await page.context().addCookies([{ name: "locale", value: locale, url: baseURL }]);
  await page.reload();
}

test("a tag-limited operator's dashboard holds only the routers of their tag", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const base = baseURL as string;
  const admin = await apiToken(request);
  const tag = `region-${Date.now().toString(36)}`;
  const mine = (await listRouters(request, admin)).slice(0, 2);
  expect(mine).toHaveLength(2);
  const tagged = await request.post("/api/devices/multiple", {
    data: { token: admin, action: "add_tags", targets: mine.map((router) => router._id), tags: [tag] },
  });
  expect(tagged.status(), await tagged.text()).toBe(200);
  const username = `tagged${Date.now().toString(36)}`;
  const created = await request.post("/api/user/new", {
    data: {
      token: admin,
      username,
      full_name: "Tina Tagged",
      role: 4,
      email: "",
      phone: "",
      plugins: [],
      password: PASSWORD,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const userId = (await created.json())._id as string;

  // The admin limits the operator on the user's page.
  const adminPage = await lookPage(browser, base, LOOKS[0]);
  await signInFleetAdmin(adminPage);
  await adminPage.goto(`/user/${userId}`);
  const scope = adminPage.getByTestId("user-tag-scope").getByRole("combobox");
  await scope.fill(tag);
  await scope.press("Enter");
  await adminPage.getByRole("button", { name: /^save$/i }).click();
  await expect
    .poll(async () => {
      const read = await request.post(`/api/user/${userId}`, { data: { token: admin } });
      return (await read.json()).tag_scope;
    })
    .toEqual([tag]);
  await adminPage.context().close();

  // The operator changes the factory password once, then opens the dashboard in each look.
  const first = await lookPage(browser, base, LOOKS[0]);
  await signIn(first, username, PASSWORD);
  await changeFactoryPassword(first, PASSWORD, NEW_PASSWORD);
  await first.context().close();
  const operator = await apiToken(request, { username, password: NEW_PASSWORD });
  const totals = await request.post("/api/dashboard/", { data: { token: operator } });
  expect((await totals.json()).total).toBe(2);

  for (const look of LOOKS) {
    const page = await lookPage(browser, base, look);
    await signIn(page, username, NEW_PASSWORD);
    await expect(page).toHaveURL(/\/dashboard$/);
    await inLanguage(page, base, look.locale);
    const rows = page.getByTestId("device-row");
    await expect(rows).toHaveCount(2, { timeout: 20_000 });
    const idents = await rows.evaluateAll((elements) =>
      elements.map((row) => row.getAttribute("data-ident")),
    );
    expect(idents.sort()).toEqual(mine.map((router) => router.ident).sort());
    await expect(page.getByTestId("status-totals")).not.toContainText(/^\s*$/);
    await shot(page, `tag-scope-${look.name}-dashboard`);
    await page.context().close();

    const adminLook = await lookPage(browser, base, look);
    await signInFleetAdmin(adminLook);
    await inLanguage(adminLook, base, look.locale);
    await adminLook.goto(`/user/${userId}`);
    await expect(adminLook.getByTestId("user-tag-scope")).toContainText(tag);
    await shot(adminLook, `tag-scope-${look.name}-user`);
    await adminLook.context().close();
  }
});
