import { describe, expect, it } from "vitest";
import { parseRangeHeader } from "./http-range";

describe("parseRangeHeader", () => {
  it.each([
    [undefined, 100, { kind: "whole" }],
    ["bytes=0-9", 100, { kind: "partial", range: { start: 0, end: 9 } }],
    ["bytes=90-", 100, { kind: "partial", range: { start: 90, end: 99 } }],
    ["bytes=90-1000", 100, { kind: "partial", range: { start: 90, end: 99 } }],
    ["bytes=-10", 100, { kind: "partial", range: { start: 90, end: 99 } }],
    ["bytes=-1000", 100, { kind: "partial", range: { start: 0, end: 99 } }],
    ["bytes=100-", 100, { kind: "unsatisfiable" }],
    ["bytes=-0", 100, { kind: "unsatisfiable" }],
    ["bytes=0-", 0, { kind: "unsatisfiable" }],
    ["bytes=-5", 0, { kind: "unsatisfiable" }],
    // Malformed, reversed or multi-range headers ask for the whole file (RFC 9110 lets a server ignore them).
    ["bytes=9-0", 100, { kind: "whole" }],
    ["bytes=0-1,5-6", 100, { kind: "whole" }],
    ["items=0-1", 100, { kind: "whole" }],
    ["bytes=-", 100, { kind: "whole" }],
    ["bytes=a-b", 100, { kind: "whole" }],
  ] as const)("reads %j of a %i-byte file", (header, size, expected) => {
    expect(parseRangeHeader(header, size)).toEqual(expected);
  });
});
