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

// Each language's texts are a chunk of their own, fetched when that language is first shown: the
// start-up bundle carries neither (ADR 018). main.tsx renders once the current one is in.
const TEXTS: Record<Locale, () => Promise<{ default: Record<string, unknown> }>> = {
  ru: () => import("../locales/ru.json"),
  en: () => import("../locales/en.json"),
};

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

/** Fetches a language's texts unless they are already in (the current one before the first render). */
export async function loadLocale(locale: Locale = currentLocale()): Promise<void> {
  if (i18n.hasResourceBundle(locale, "translation")) return;
  const { default: texts } = await TEXTS[locale]();
  i18n.addResourceBundle(locale, "translation", texts);
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
  if (i18n.hasResourceBundle(locale, "translation")) applyLocale(locale);
  else void loadLocale(locale).then(() => applyLocale(locale));
}

export { i18n };
