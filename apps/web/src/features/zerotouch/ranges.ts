import type { ZeroTouchRange } from "@cellfleet/contract";

/** Ranges as the form writes them: one per line, `first last` (or one value for a range of one). */
export function rangesToText(ranges: readonly ZeroTouchRange[]): string {
  return ranges
    .map((range) => (range.from === range.to ? range.from : `${range.from} ${range.to}`))
    .join("\n");
}

/** The ranges of the form's text; empty lines are skipped. The contract's schema checks each. */
export function textToRanges(text: string): ZeroTouchRange[] {
  return text
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((parts) => parts[0] !== "")
    .map(([from = "", to]) => ({ from, to: to ?? from }));
}

/** A comma- or line-separated list, trimmed, without empty entries. */
export function textToList(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
}
