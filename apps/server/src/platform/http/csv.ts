// CSV as spreadsheets read it back: RFC 4180 quoting and CRLF line ends, written by the exports.

/** A CSV field: quoted when it holds a comma, quote or line break; formula starters are neutralised. */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  let text = String(value);
  // A spreadsheet would run a cell starting with = + - @ as a formula; a leading quote keeps it text.
  if (/^[=+\-@\t\r]/.test(text) && typeof value === "string") text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
