import { describe, expect, it } from "vitest";
import { parseBulkDevices } from "./devices-bulk";

describe("parseBulkDevices", () => {
  it("reads ident, description, tags and key; skips blanks, comments and a CSV header", () => {
    const key = "a1".repeat(32);
    const parsed = parseBulkDevices(
      ["ident,description,tags,key", "", "# note", `RUT0001,Gate, north;pumps ,${key}`, "RUT0002"].join(
        "\r\n",
      ),
    );
    expect(parsed.refused).toEqual([]);
    expect(parsed.candidates).toEqual([
      {
        line: 4,
        ident: "RUT0001",
        description: "Gate",
        tags: ["north", "pumps"],
        aes_key: key.toUpperCase(),
      },
      { line: 5, ident: "RUT0002", description: "", tags: [], aes_key: null },
    ]);
  });

  it("keeps commas of a description when the line has more than four fields", () => {
    const parsed = parseBulkDevices("RUT0003,Moscow, Lenina 1,north,");
    expect(parsed.candidates[0]).toMatchObject({
      description: "Moscow, Lenina 1",
      tags: ["north"],
      aes_key: null,
    });
  });

  it("refuses each bad line with its code and a repeated ident from its second line", () => {
    const parsed = parseBulkDevices(
      ["RUT-1", "RUT0004,x,ab", `RUT0005,x,,${"f".repeat(65)}`, "RUT0006", "RUT0006"].join("\n"),
    );
    expect(parsed.refused.map((r) => [r.line, r.result, r.reason])).toEqual([
      [1, "BAD_IDENT", "identChars"],
      [2, "TAGS_MUST_BE_ARRAY", "tagTooShort"],
      [3, "BAD_REQUEST", "keyInvalid"],
      [5, "DEVICE_ALREADY_EXIST", "repeated in the list"],
    ]);
    expect(parsed.candidates.map((c) => c.ident)).toEqual(["RUT0006"]);
  });

  it("refuses more than 5000 lines at once", () => {
    const text = Array.from({ length: 5001 }, (_, i) => `DEV${String(i).padStart(5, "0")}`).join("\n");
    expect(() => parseBulkDevices(text)).toThrow(/5000/);
  });
});
