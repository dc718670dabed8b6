import { PAGINATOR_MAX_BUTTONS } from "@cellfleet/contract";

/** How many pages `total` rows fill at `pageSize` a page; an empty list still has one page. */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.max(0, total) / Math.max(1, pageSize)));
}

/** A page number kept inside 0..pageCount-1, so a shrunken list never shows an empty page. */
export function clampPage(page: number, pages: number): number {
  return Math.min(Math.max(0, Math.floor(page)), Math.max(0, pages - 1));
}

/**
 * The zero-based page numbers the paginator shows as buttons: at most `max` (3, spec section 2),
 * a window around the current page that slides at the ends (first pages: 0 1 2; last: n-3 n-2 n-1).
 */
export function pageButtons(page: number, pages: number, max = PAGINATOR_MAX_BUTTONS): number[] {
  const count = Math.min(Math.max(0, pages), max);
  if (count === 0) return [];
  const current = clampPage(page, pages);
  const start = Math.min(Math.max(0, current - Math.floor(count / 2)), pages - count);
  return Array.from({ length: count }, (_, index) => start + index);
}
