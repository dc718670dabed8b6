/**
 * Whether two JSON values have the same JSON text: primitives compared as values (0 and -0 alike,
 * as are NaN and NaN), objects and lists by their text, so key order counts.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b || Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
