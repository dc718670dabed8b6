import { COOKIE_VERSION, DEFAULT_LOCALE, LOCALES, type Locale } from "@cellfleet/contract";
import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { localeFromBrowser } from "./browserLocale";
import { readCookie, resetCookiesUnlessVersion, writeCookie } from "./cookies";
import { formatNumber } from "./format";
import { TEXTS_OF, type TextPart, type TextsOf } from "./textParts";

/** The cookie the language choice is kept in (spec section 2, top toolbar). */
export const LOCALE_COOKIE = "locale";

function isLocale(value: string | null): value is Locale {
  return value !== null && (LOCALES as readonly string[]).includes(value);
}

/** The language chosen before (its cookie), else the one the browser asks for, else the spec's default. */
function initialLocale(): Locale {
  resetCookiesUnlessVersion(COOKIE_VERSION);
  const stored = readCookie(LOCALE_COOKIE);
  if (isLocale(stored)) return stored;
  const asked = typeof navigator === "undefined" ? [] : (navigator.languages ?? [navigator.language]);
  return localeFromBrowser(asked) ?? DEFAULT_LOCALE;
}

type Texts = { default: Record<string, unknown> };
type Loader = () => Promise<Texts>;
/**
 * Each language's texts come in parts, each a chunk of its own (textParts.ts, ADR 018): the start
 * texts, the signed-in shell's, and one part per group of the console texts. main.tsx renders once
 * the current language's start texts are in; every other piece is fetched together with the parts
 * it names (`withTexts`).
 */
const FIXED: Record<"start" | "shell", Record<Locale, Loader>> = {
  start: {
    ru: () => import("../locales/start/ru.json"),
    en: () => import("../locales/start/en.json"),
  },
  shell: {
    ru: () => import("../locales/shell/ru.json"),
    en: () => import("../locales/shell/en.json"),
  },
};
const CONSOLE = import.meta.glob<Texts>("../locales/console/*/*.json");

function loaderOf(part: TextPart, locale: Locale): Loader {
  if (part === "start" || part === "shell") return FIXED[part][locale];
  const load = CONSOLE[`../locales/console/${part}/${locale}.json`];
  if (!load) throw new Error(`no ${locale} texts for the part ${part}`);
  return load;
}

/** The parts loaded per language, and every part asked for in any language: a switch brings them all. */
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
 * Fetches a language's texts unless they are already in: by default every part any piece has asked
 * for so far (so a language switch never shows a key).
 */
export async function loadLocale(locale: Locale = currentLocale(), parts: readonly TextPart[] = [...wanted]) {
  await Promise.all(
    parts.map(async (part) => {
      if (loaded.has(`${locale}/${part}`)) return;
      const { default: texts } = await loaderOf(part, locale)();
      i18n.addResourceBundle(locale, "translation", texts, true, true);
      loaded.add(`${locale}/${part}`);
    }),
  );
}

/** Fetches parts of the current language's texts (and of any language switched to later). */
export function loadTexts(parts: readonly TextPart[]): Promise<void> {
  for (const part of parts) wanted.add(part);
  return loadLocale(currentLocale(), parts);
}

/** Fetches a lazily loaded piece together with the texts it speaks (textParts.ts). */
export async function withTexts<M>(piece: TextsOf, load: () => Promise<M>): Promise<M> {
  const [module] = await Promise.all([load(), loadTexts(TEXTS_OF[piece])]);
  return module;
}

const hasAllWanted = (locale: Locale) => [...wanted].every((part) => loaded.has(`${locale}/${part}`));

function applyLocale(locale: Locale): void {
  void i18n.changeLanguage(locale);
  if (typeof document !== "undefined") document.documentElement.lang = locale;
}

/** Loads every wanted part of a language, including parts a page asks for while this runs. */
async function loadWanted(locale: Locale): Promise<void> {
  while (!hasAllWanted(locale)) await loadLocale(locale);
}

/**
 * Switches the interface language and remembers it in the `locale` cookie. A language not yet
 * fetched is switched to once its texts are in, so the page never shows keys in between.
 */
export function setLocale(locale: Locale): void {
  writeCookie(LOCALE_COOKIE, locale);
  if (hasAllWanted(locale)) applyLocale(locale);
  else void loadWanted(locale).then(() => applyLocale(locale));
}

export { i18n };
