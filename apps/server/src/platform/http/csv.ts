import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { AppError } from "../errors";

// The one CSV module of the server: every export writes through `toCsvLines`, every import reads
// through `parseCsvRows` (csv-stringify and csv-parse: RFC 4180 quoting, CRLF line ends), so what
// an export writes an import reads back.

/** A CSV cell as the exports give it. */
export type CsvCell = string | number | null;

// A spreadsheet runs a cell starting with = + - @ (or a tab or carriage return before one) as a
// formula; a leading apostrophe keeps it text. Only text cells: a negative number stays a number.
const FORMULA_START = /^[=+\-@\t\r]/;

/** A text cell made safe for spreadsheets (OWASP CSV injection): formula starters get a leading `'`. */
export function guardFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** What `guardFormula` added, taken away again, so an export's cells import as they were. */
export function unguardFormula(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

/** Rows as CSV text, CRLF after every row (a header is just the first row). */
export function toCsvLines(rows: readonly (readonly CsvCell[])[]): string {
  return stringify(
    rows.map((row) => row.map((cell) => (typeof cell === "string" ? guardFormula(cell) : cell))),
    { record_delimiter: "\r\n", cast: { number: (value) => String(value) } },
  );
}

/** A whole CSV document: the header row, then the rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return toCsvLines([header, ...rows]);
}

/** One row read from CSV text, with the 1-based line it starts on. */
export interface CsvRow {
  line: number;
  fields: string[];
}

/**
 * Reads CSV text (quoted fields, quotes doubled, line breaks inside quotes, CRLF or LF), skipping
 * blank lines and lines starting with `#`; fields are trimmed and un-guarded. Broken quoting
 * answers FILE_PARSING_FAILED naming the line.
 */
export function parseCsvRows(text: string): CsvRow[] {
  let records: { info: { bytes: number }; record: string[] }[];
  try {
    records = parse(text, {
      info: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      comment: "#",
      comment_no_infix: true,
      trim: true,
      bom: true,
    }) as unknown as { info: { bytes: number }; record: string[] }[];
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    throw new AppError(
      "FILE_PARSING_FAILED",
      `The CSV could not be read${line ? ` at line ${line}` : ""}: ${(error as Error).message.split(":")[0]}`,
    );
  }
  // The parser counts bytes read up to the end of each record (its line break included): the
  // record ends on the line before, and starts as many lines earlier as its quoted fields break.
  // Line breaks are counted once, as the records go (a 10,000-row import must not rescan the text
  // per row); a "\n" byte is never part of a longer UTF-8 character.
  const bytes = Buffer.from(text, "utf8");
  const newlinesIn = (part: string) => part.split("\n").length - 1;
  let scanned = 0;
  let newlines = 0;
  return records.map(({ info, record }) => {
    for (; scanned < info.bytes; scanned++) if (bytes[scanned] === 0x0a) newlines++;
    const endLine = newlines - (bytes[info.bytes - 1] === 0x0a ? 1 : 0) + 1;
    return { line: endLine - newlinesIn(record.join("")), fields: record.map(unguardFormula) };
  });
}
