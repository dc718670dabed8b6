import { SEARCH_HISTORY_SIZE } from "@cellfleet/contract";

/**
 * Adds a search to a list's history: newest first, no duplicates (a repeated search moves to the
 * front), blanks ignored, at most SEARCH_HISTORY_SIZE entries (spec section 9).
 */
export function pushSearchHistory(
  history: readonly string[],
  entry: string,
  size = SEARCH_HISTORY_SIZE,
): string[] {
  const text = entry.trim();
  if (!text) return [...history];
  return [text, ...history.filter((item) => item !== text)].slice(0, size);
}
