import type { ByteRange } from "./file-storage";

/** What a Range header asks of a file of known size. */
export type RangeRequest =
  | { kind: "whole" }
  | { kind: "partial"; range: ByteRange }
  | { kind: "unsatisfiable" };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * Reads a single-range `Range: bytes=…` header (RFC 9110 14.2). No header, a malformed one or a
 * multi-range one asks for the whole file, as the RFC lets a server answer; a range that starts
 * past the end is unsatisfiable (416).
 */
export function parseRangeHeader(header: string | undefined, size: number): RangeRequest {
  const match = header === undefined ? null : SINGLE_RANGE.exec(header.trim());
  if (!match) return { kind: "whole" };
  const [, first, last] = match;
  if (first === "" && last === "") return { kind: "whole" };
  if (first === "") {
    // `bytes=-N`: the last N bytes.
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== "" && Number(last) < start) return { kind: "whole" };
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", range: { start, end } };
}
