/** The four looks every screen is saved in: desktop and phone, light and dark, Russian and English. */
export const LOOKS = [
  { name: "desktop-light-en", width: 1440, height: 900, theme: "light", locale: "en" },
  { name: "desktop-dark-ru", width: 1440, height: 900, theme: "dark", locale: "ru" },
  { name: "mobile-light-ru", width: 390, height: 844, theme: "light", locale: "ru" },
  { name: "mobile-dark-en", width: 390, height: 844, theme: "dark", locale: "en" },
] as const;
