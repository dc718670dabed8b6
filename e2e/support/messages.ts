import type { BrowserContext, Page } from "@playwright/test";

/** Records the text of every info message shown in this context, even one shown for a moment. */
export async function recordInfoMessages(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __infoMessages: string[] }).__infoMessages = seen;
    new MutationObserver(() => {
      for (const node of document.querySelectorAll('[data-testid="info-message"]')) {
        const text = node.textContent ?? "";
        if (text && seen.at(-1) !== text) seen.push(text);
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
}

/** The info messages recorded so far in this page. */
export function infoMessages(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __infoMessages: string[] }).__infoMessages);
}
