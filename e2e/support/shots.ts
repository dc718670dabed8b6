import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";

const SHOTS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "screenshots");

/** What is still loading: the top loading bar, a spinner or an indeterminate bar in view. */
const LOADING =
  '[data-testid="loading-bar"], .MuiCircularProgress-indeterminate, .MuiLinearProgress-indeterminate';

/**
 * Saves a full-page screenshot under e2e/screenshots/<name>.png for a person to look at; it is a
 * step of the test that checked what it shows, never a test of its own, and is not compared (ADR 027).
 * It waits until nothing is loading and the web fonts are in, and finishes transitions (a menu's fade)
 * rather than waiting a fixed time for them.
 */
export async function shot(page: Page, name: string): Promise<void> {
  await test.step(
    `screenshot ${name}`,
    async () => {
      await expect(page.locator(LOADING).filter({ visible: true })).toHaveCount(0);
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      mkdirSync(SHOTS_DIR, { recursive: true });
      await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage: true, animations: "disabled" });
    },
    { box: true },
  );
}
