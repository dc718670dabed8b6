import { LOCALES, type Locale } from "@cellfleet/contract";

/**
 * The first interface language the browser asks for (`navigator.languages`, most wanted first), by
 * its primary subtag: "en-GB" asks for English, "ru-RU" for Russian. Null when it asks for neither,
 * so the spec's default language stays for such a browser (issue 27: the console opened in Russian
 * whatever the browser's language).
 */
export function localeFromBrowser(languages: readonly string[]): Locale | null {
  for (const tag of languages) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? "";
    const match = LOCALES.find((locale) => locale === primary);
    if (match) return match;
  }
  return null;
}
