/** Debian's Chromium (apt-get install chromium); never a browser Playwright downloads. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Headless, as root, and quiet on a closed network: without the background-networking flags
 * Chromium keeps trying to reach Google's hosts and its connections are refused.
 */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
