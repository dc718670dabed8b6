import { COOKIE_VERSION, DEFAULT_LOCALE, LOCALES, type Locale } from "@cellfleet/contract";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { readCookie, resetCookiesUnlessVersion, writeCookie } from "./cookies";
import { formatNumber } from "./format";

/** The cookie the language choice is kept in (spec section 2, top toolbar). */
export const LOCALE_COOKIE = "locale";

function isLocale(value: string | null): value is Locale {
  return value !== null && (LOCALES as readonly string[]).includes(value);
}

function initialLocale(): Locale {
  resetCookiesUnlessVersion(COOKIE_VERSION);
  const stored = readCookie(LOCALE_COOKIE);
  return isLocale(stored) ? stored : DEFAULT_LOCALE;
}

/**
 * Each language's texts come in two parts, each a chunk of its own (ADR 018): `start` holds what the
 * shell and the signed-out pages say (login, demo, toolbar, menu, route titles), `console` the rest
 * (the pages behind sign-in). main.tsx renders once the current language's start texts are in; a
 * page other than the login page is fetched together with the console texts (routePages.tsx).
 */
export type TextPart = "start" | "console";
const TEXTS: Record<TextPart, Record<Locale, () => Promise<{ default: Record<string, unknown> }>>> = {
  start: {
    ru: () => import("../locales/start/ru.json"),
    en: () => import("../locales/start/en.json"),
  },
  console: {
    ru: () => import("../locales/console/ru.json"),
    en: () => import("../locales/console/en.json"),
  },
};
/** The parts loaded per language, and the parts a language switch must bring along. */
const loaded = new Set<string>();
const wanted = new Set<TextPart>(["start"]);

void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: initialLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  interpolation: { escapeValue: false },
  initAsync: false,
});

// `{{count, number}}` in the locale files goes through the same helper as the counts rendered in
// components, so a number looks the same wherever it is shown.
i18n.services.formatter?.add("number", (value, lng) =>
  typeof value === "number" ? formatNumber(value, lng ?? DEFAULT_LOCALE) : String(value),
);

if (typeof document !== "undefined") document.documentElement.lang = i18n.language;

/** The language texts are shown in right now. */
export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

/**
 * Fetches a language's texts unless they are already in: its start texts, and the console texts too
 * once any page has asked for them (so a language switch never shows a key).
 */
export async function loadLocale(locale: Locale = currentLocale(), parts: readonly TextPart[] = [...wanted]) {
  await Promise.all(
    parts.map(async (part) => {
      if (loaded.has(`${locale}/${part}`)) return;
      const { default: texts } = await TEXTS[part][locale]();
      i18n.addResourceBundle(locale, "translation", texts, true, true);
      loaded.add(`${locale}/${part}`);
    }),
  );
}

/** Fetches the console texts of the current language (and of any language switched to later). */
export function loadConsoleTexts(): Promise<void> {
  wanted.add("console");
  return loadLocale(currentLocale(), ["console"]);
}

function applyLocale(locale: Locale): void {
  void i18n.changeLanguage(locale);
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}

/**
 * Switches the interface language and remembers it in the `locale` cookie. A language not yet
 * fetched is switched to once its texts are in, so the page never shows keys in between.
 */
export function setLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale);
  if ([...wanted].every((part) => loaded.has(`${locale}/${part}`))) applyLocale(locale);
  else void loadLocale(locale).then(() => applyLocale(locale));
}

export { i18n };
