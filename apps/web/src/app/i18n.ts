import { COOKIE_VERSION, DEFAULT_LOCALE, LOCALES, type Locale } from "@cellfleet/contract";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import en from "../locales/en.json";
import ru from "../locales/ru.json";
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

void i18n.use(initReactI18next).init({
  resources: { ru: { translation: ru }, en: { translation: en } },
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

/** Switches the interface language and remembers it in the `locale` cookie. */
export function setLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale);
  void i18n.changeLanguage(locale);
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}

export { i18n };
