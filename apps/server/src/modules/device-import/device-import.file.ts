import { DEVICE_IMPORT_MAX_ROWS } from "@cellfleet/contract";
import { AppError } from "../../platform/errors";
import { type CsvRow, parseCsvRows } from "../../platform/http/csv";

// An import file's rows as text cells, from CSV (the platform's one CSV reader) or the first sheet
// of an XLSX workbook (exceljs, loaded on the first XLSX only: server-side, never in the web).

/** An uploaded import file. */
export interface ImportUpload {
  filename: string;
  bytes: Buffer;
}

/** A row of the file: its number (the header counted) and its cells as text, trimmed. */
export type ImportFileRow = CsvRow;

const ZIP_START = Buffer.from([0x50, 0x4b, 0x03, 0x04]);

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf(".");
  return dot < 0 ? "" : filename.slice(dot + 1).toLowerCase();
}

function csvRowsOf(bytes: Buffer): ImportFileRow[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("UNSUPPORTED_ENCODING", "The CSV file is not UTF-8 text");
  }
  return parseCsvRows(text);
}

/** A cell of exceljs as the text a person sees (a formula's result, rich text joined). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value !== "object") return String(value).trim();
  const cell = value as { result?: unknown; richText?: { text: string }[]; text?: unknown; error?: string };
  if ("result" in cell) return cellText(cell.result);
  if (cell.richText)
    return cell.richText
      .map((part) => part.text)
      .join("")
      .trim();
  if ("text" in cell) return cellText(cell.text);
  return "";
}

async function xlsxRowsOf(bytes: Buffer): Promise<ImportFileRow[]> {
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch (error) {
    throw new AppError("FILE_PARSING_FAILED", `The XLSX file could not be read: ${(error as Error).message}`);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: ImportFileRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const values = (row.values as unknown[]).slice(1).map(cellText);
    if (values.some((value) => value !== "")) rows.push({ line: rowNumber, fields: values });
  });
  return rows;
}

/**
 * The rows of an import file: .xlsx (or any file that starts as a ZIP does) through exceljs,
 * .csv or .txt as UTF-8 CSV. Other files answer INVALID_FILE_TYPE, unreadable ones
 * FILE_PARSING_FAILED, more than DEVICE_IMPORT_MAX_ROWS rows BAD_REQUEST.
 */
export async function readImportFile(upload: ImportUpload): Promise<ImportFileRow[]> {
  const extension = extensionOf(upload.filename);
  const isZip = upload.bytes.subarray(0, 4).equals(ZIP_START);
  let rows: ImportFileRow[];
  if (extension === "xlsx" || isZip) rows = await xlsxRowsOf(upload.bytes);
  else if (extension === "csv" || extension === "txt") rows = csvRowsOf(upload.bytes);
  else throw new AppError("INVALID_FILE_TYPE", "Import a .csv or .xlsx file");
  // The header row is not a router.
  if (rows.length > DEVICE_IMPORT_MAX_ROWS + 1) {
    throw new AppError("BAD_REQUEST", `At most ${DEVICE_IMPORT_MAX_ROWS} routers in one file`);
  }
  return rows;
}
