/** Minimal cookie helpers for the browser's own preferences (locale, cookie version). */

export function readCookie(name: string): string | null {
  if (typeof document === "undefined") return null;
  for (const part of document.cookie.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function writeCookie(name: string, value: string): void {
  if (typeof document === "undefined") return;
  // biome-ignore lint/suspicious/noDocumentCookie: the locale must be readable synchronously before the first render, and the Cookie Store API is not in every supported browser
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=${ONE_YEAR_SECONDS}; SameSite=Lax`;
}

/** The cookie that records which layout of the console's cookies the browser holds. */
export const VERSION_COOKIE = "version";

/**
 * Spec section 9: when the version cookie is absent (or another version), every cookie of the console
 * is dropped and the current version written, so a browser never reads a cookie of an older layout.
 */
export function resetCookiesUnlessVersion(version: string): boolean {
  if (typeof document === "undefined" || readCookie(VERSION_COOKIE) === version) return false;
  for (const part of document.cookie.split(";")) {
    const name = part.trim().split("=")[0];
    // biome-ignore lint/suspicious/noDocumentCookie: expiring a cookie needs the plain cookie string
    if (name) document.cookie = `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT; SameSite=Lax`;
  }
  writeCookie(VERSION_COOKIE, version);
  return true;
}
