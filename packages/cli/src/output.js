// What the tool prints: JSON with --json (one document, for scripts), else tables with colours when
// stdout is a terminal (and NO_COLOR is unset), plain columns when it is a pipe.

/**
 * @typedef {{ write(text: string): unknown; isTTY?: boolean; columns?: number }} Stream
 * @typedef {{ stdout: Stream; stderr: Stream; isJson: boolean; hasColour: boolean }} Output
 */

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, grey: 90, bold: 1 };

/**
 * @param {{ stdout: Stream; stderr: Stream; env: NodeJS.ProcessEnv }} io
 * @param {boolean} isJson
 * @returns {Output}
 */
export function createOutput(io, isJson) {
  const hasColour = Boolean(io.stdout.isTTY) && !io.env.NO_COLOR && !isJson;
  return { stdout: io.stdout, stderr: io.stderr, isJson, hasColour };
}

/**
 * @param {Output} out
 * @param {keyof typeof CODES} colour
 * @param {string} text
 */
export function paint(out, colour, text) {
  return out.hasColour ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

/**
 * The colour of a status word: done green, failed red, waiting yellow.
 * @param {string} status
 * @returns {keyof typeof CODES}
 */
export function colourOfStatus(status) {
  if (/^(success|done|online|finished|completed|created)$/i.test(status)) return "green";
  if (/(fail|error|declined|cancel|offline|refused)/i.test(status)) return "red";
  return "yellow";
}

/**
 * Prints rows as a table with a header; columns as wide as their widest cell.
 * @param {Output} out
 * @param {string[]} header
 * @param {string[][]} rows
 * @param {(column: number, cell: string) => string} [decorate] colours a cell after padding
 */
export function printTable(out, header, rows, decorate) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (/** @type {string[]} */ cells, /** @type {boolean} */ isHeader) =>
    cells
      .map((cell, column) => {
        const padded = column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0);
        if (isHeader) return paint(out, "bold", padded);
        return decorate ? decorate(column, padded) : padded;
      })
      .join("  ")
      .trimEnd();
  out.stdout.write(`${line(header, true)}\n`);
  for (const row of rows) out.stdout.write(`${line(row, false)}\n`);
}

/**
 * @param {Output} out
 * @param {unknown} value
 */
export function printJson(out, value) {
  out.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/**
 * A progress bar on stderr when it is a terminal (a line per 25% otherwise), so stdout stays clean.
 * @param {Output} out
 * @param {string} label
 */
export function createProgressBar(out, label) {
  let lastQuarter = -1;
  return {
    /** @param {number} done @param {number} total */
    update(done, total) {
      const ratio = total === 0 ? 1 : done / total;
      if (out.stderr.isTTY) {
        const width = 30;
        const filled = Math.round(ratio * width);
        const bar = `${"█".repeat(filled)}${"░".repeat(width - filled)}`;
        out.stderr.write(`\r${label} ${bar} ${Math.floor(ratio * 100)}%`);
        if (done >= total) out.stderr.write("\n");
        return;
      }
      const quarter = Math.floor(ratio * 4);
      if (quarter > lastQuarter && !out.isJson) {
        lastQuarter = quarter;
        out.stderr.write(`${label} ${quarter * 25}%\n`);
      }
    },
  };
}

/**
 * A time in ms as the local ISO-like text, or "—".
 * @param {number | null | undefined} ms
 */
export function formatTime(ms) {
  return typeof ms === "number" ? new Date(ms).toISOString().replace("T", " ").slice(0, 19) : "—";
}
