// The texts come in parts, each page fetched with its own (ADR 018, round 5): no page shows a raw
// key, nor the other language's text, on first sight or right after the language is switched — the
// switch brings every part already fetched. The dashboard and the device page are saved in ru/en ×
// light/dark × 1440/390 px for a person to look at.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signInFleetAdmin, useEnglish } from "../support/session";
import { shot } from "../support/shots";

// The top-level groups of the texts: a raw key on screen starts with one of them and a dot.
const LOCALES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "apps", "web", "src", "locales");
const groupsOf = (file: string) => Object.keys(JSON.parse(readFileSync(file, "utf8")) as object);
const GROUPS = [
  ...groupsOf(join(LOCALES, "start", "en.json")),
  ...groupsOf(join(LOCALES, "shell", "en.json")),
  ...readdirSync(join(LOCALES, "console")).flatMap((part) =>
    groupsOf(join(LOCALES, "console", part, "en.json")),
  ),
];
const RAW_KEY = new RegExp(`(?<![\\w.@/])(?:${GROUPS.join("|")})\\.[A-Za-z][\\w.]*`, "g");

/**
 * What the page says: its visible text and the labels, titles and placeholders of its elements. An
 * open menu is left out: the user menu names the other language in that language.
 */
function pageTexts(page: Page): Promise<string> {
  return page.evaluate(() => {
    const outsideMenus = (element: Element) => element.closest("[role=menu]") === null;
    const attributes = [...document.querySelectorAll("[aria-label], [title], [placeholder]")]
      .filter(outsideMenus)
      .flatMap((element) =>
        ["aria-label", "title", "placeholder"].map((name) => element.getAttribute(name) ?? ""),
      );
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (parent && outsideMenus(parent) && !["SCRIPT", "STYLE"].includes(parent.tagName))
        texts.push(node.nodeValue ?? "");
    }
    return [...texts, ...attributes].join("\n");
  });
}

/** Fails on a raw key on screen, and on Russian text in English (a missing part falls back to Russian). */
async function expectAllTexts(page: Page, locale: "ru" | "en", where: string) {
  // Let the page settle: the title shows once the page's chunk and texts are in.
  await expect(page.getByTestId("page-title")).toBeVisible();
  const texts = await pageTexts(page);
  expect(texts.match(RAW_KEY) ?? [], `raw keys on ${where}`).toEqual([]);
  if (locale === "en") expect(texts.match(/[А-Яа-яЁё]+/g) ?? [], `Russian on ${where}`).toEqual([]);
  else expect(texts).toMatch(/[А-Яа-яЁё]/);
}

async function switchLanguage(page: Page, to: "ru" | "en") {
  await page.getByRole("button", { name: /user menu|меню пользователя/i }).click();
  await page.getByTestId("toggle-language").click();
  await expect(page.locator("html")).toHaveAttribute("lang", to);
  await page.keyboard.press("Escape");
  await expect(page.getByRole("menu")).toBeHidden();
}

async function firstDevicePath(page: Page): Promise<string> {
  await page.goto("/dashboard");
  const row = page.getByTestId("device-row").first();
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole("link").first().click();
  await expect(page).toHaveURL(/\/device\/[^/]+$/);
  return new URL(page.url()).pathname;
}

test("pages show their texts in both languages, right after a switch too", async ({
  page,
  context,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await useEnglish(context, baseURL as string);
  await signInFleetAdmin(page);
  await expect(page.getByTestId("device-row").first()).toBeVisible({ timeout: 30_000 });
  await expectAllTexts(page, "en", "the dashboard");

  const device = await firstDevicePath(page);
  await expect(page.getByTestId("page-title")).toBeVisible();
  await expectAllTexts(page, "en", "the device page");

  // Russian was never fetched: the switch brings the start, shell, dashboard and device parts.
  await switchLanguage(page, "ru");
  await expectAllTexts(page, "ru", "the device page after the switch");
  await shot(page, "text-parts-device-switched-ru");
  await page.goBack();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectAllTexts(page, "ru", "the dashboard after the switch");

  // Pages of other parts, reached inside the app, in Russian; then back to English on the last one.
  for (const [path, label] of [
    ["/notifications", "notifications"],
    ["/events", "events"],
    ["/settings", "settings"],
  ] as const) {
    await page.evaluate((to) => {
      window.history.pushState({}, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expectAllTexts(page, "ru", label);
  }
  await switchLanguage(page, "en");
  await expectAllTexts(page, "en", "settings after the switch back");
  await shot(page, "text-parts-settings-switched-en");
  for (const path of ["/notifications", "/events", device, "/dashboard"]) {
    await page.evaluate((to) => {
      window.history.pushState({}, "", to);
      window.dispatchEvent(new PopStateEvent("popstate"));
    }, path);
    await expectAllTexts(page, "en", `${path} after the switch back`);
  }
});

const LOOKS = ["ru", "en"].flatMap((locale) =>
  ["light", "dark"].flatMap((theme) => [1440, 390].map((width) => ({ locale, theme, width }))),
);

async function useLook(page: Page, context: BrowserContext, baseURL: string, look: (typeof LOOKS)[number]) {
  await page.setViewportSize({ width: look.width, height: look.width > 800 ? 900 : 844 });
  await page.evaluate((theme) => localStorage.setItem("cellfleet.theme", theme), look.theme);
  await context.addCookies([{ name: "locale", value: look.locale, url: baseURL }]);
}

test("the dashboard and the device page in every look", async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  await useEnglish(context, baseURL as string);
  await signInFleetAdmin(page);
  const device = await firstDevicePath(page);
  for (const look of LOOKS) {
    await useLook(page, context, baseURL as string, look);
    const name = `${look.locale}-${look.theme}-${look.width}`;
    await page.goto("/dashboard");
    await expect(page.getByTestId("device-row").first()).toBeVisible({ timeout: 30_000 });
    await expectAllTexts(page, look.locale as "ru" | "en", `the dashboard, ${name}`);
    await shot(page, `text-parts-${name}-dashboard`);
    await page.goto(device);
    await expectAllTexts(page, look.locale as "ru" | "en", `the device page, ${name}`);
    await shot(page, `text-parts-${name}-device`);
  }
});
