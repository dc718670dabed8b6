import { TAG_SUGGESTIONS_LIMIT } from "@cellfleet/contract";

/**
 * Tag suggestions for a typed prefix (spec section 2): tags containing the text (case-insensitive),
 * not already chosen, most frequent first (ties by name), at most TAG_SUGGESTIONS_LIMIT.
 */
export function suggestTags(
  frequencies: Readonly<Record<string, number>>,
  typed: string,
  chosen: readonly string[],
  limit = TAG_SUGGESTIONS_LIMIT,
): string[] {
  const needle = typed.trim().toLowerCase();
  const taken = new Set(chosen);
  return Object.entries(frequencies)
    .filter(([tag]) => !taken.has(tag) && tag.toLowerCase().includes(needle))
    .sort(([a, fa], [b, fb]) => fb - fa || a.localeCompare(b))
    .slice(0, limit)
    .map(([tag]) => tag);
}

/** The hint Tab accepts: the best suggestion that starts with the typed text, or null. */
export function tagHint(suggestions: readonly string[], typed: string): string | null {
  const needle = typed.trim().toLowerCase();
  if (!needle) return null;
  return suggestions.find((tag) => tag.toLowerCase().startsWith(needle)) ?? null;
}
