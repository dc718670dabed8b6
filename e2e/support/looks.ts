import type { Page } from "@playwright/test";

/** The four looks every screen is saved in: desktop and phone, light and dark, Russian and English. */
export const LOOKS = [
  { name: "desktop-light-en", width: 1440, height: 900, theme: "light", locale: "en" },
  { name: "desktop-dark-ru", width: 1440, height: 900, theme: "dark", locale: "ru" },
  { name: "mobile-light-ru", width: 390, height: 844, theme: "light", locale: "ru" },
  { name: "mobile-dark-en", width: 390, height: 844, theme: "dark", locale: "en" },
] as const;

/**
 * How far the page, and the table `testId` within its container, reach past their width: 0 when
 * nothing scrolls sideways (a phone's lists must fit, issue 27).
 */
export function sidewaysOverflow(page: Page, testId: string): Promise<number> {
  return page.getByTestId(testId).evaluate((table) => {
    const box = table.parentElement as HTMLElement;
    return Math.max(
      0,
      box.scrollWidth - box.clientWidth,
      document.documentElement.scrollWidth - window.innerWidth,
    );
  });
}
