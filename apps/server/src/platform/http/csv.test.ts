import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { guardFormula, parseCsvRows, toCsv, unguardFormula } from "./csv";

describe("the CSV module", () => {
  it("writes RFC 4180 with CRLF and reads back what it wrote", () => {
    const rows = [
      ["R1", 'a "quoted", comma', "line\nbreak", 5, null],
      ["R2", "plain", "", -3, "x"],
    ];
    const text = toCsv(["ident", "description", "note", "n", "extra"], rows);
    expect(text.split("\r\n")[0]).toBe("ident,description,note,n,extra");
    expect(text).toContain('"a ""quoted"", comma"');
    expect(text.endsWith("\r\n")).toBe(true);
    const read = parseCsvRows(text).map((row) => row.fields);
    expect(read).toEqual([
      ["ident", "description", "note", "n", "extra"],
      ["R1", 'a "quoted", comma', "line\nbreak", "5", ""],
      ["R2", "plain", "", "-3", "x"],
    ]);
  });

  it("guards text cells that a spreadsheet would run as formulas, and takes the guard off on reading", () => {
    for (const formula of ["=1+1", "+cmd", "-2+3", "@SUM(A1)", "\t=x", "\r=x"]) {
      expect(guardFormula(formula)).toBe(`'${formula}`);
      expect(unguardFormula(guardFormula(formula))).toBe(formula);
    }
    expect(guardFormula("plain")).toBe("plain");
    expect(unguardFormula("'kept")).toBe("'kept");
    const text = toCsv(["a", "n"], [['=HYPERLINK("http://evil")', -5]]);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")",-5`);
    expect(parseCsvRows(text)[1].fields).toEqual(['=HYPERLINK("http://evil")', "-5"]);
  });

  it("skips blank lines and # comments, trims fields, numbers the lines", () => {
    const rows = parseCsvRows("# a comment\n\n R1 , d \r\nR2\n");
    expect(rows).toEqual([
      { line: 3, fields: ["R1", "d"] },
      { line: 4, fields: ["R2"] },
    ]);
  });

  it("answers FILE_PARSING_FAILED for broken quoting", () => {
    expect(() => parseCsvRows('R1,"never closed\nR2,x')).toThrow(AppError);
    try {
      parseCsvRows('R1,"never closed\nR2,x');
    } catch (error) {
      expect((error as AppError).code).toBe("FILE_PARSING_FAILED");
    }
  });
});
