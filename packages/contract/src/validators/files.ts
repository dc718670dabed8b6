import { UPLOAD_MAX_BYTES } from "../constants";
import type { ValidationResult } from "./keys";

/** Kinds of uploaded files, as in POST /api/file/{kind}. */
export const FILE_KINDS = ["firmware", "package", "file"] as const;
/** A kind of uploaded file. */
export type FileKind = (typeof FILE_KINDS)[number];

/** Extensions of sequence/phrase dictionary files. */
export const DICTIONARY_EXTENSIONS = ["txt", "csv"] as const;

/** The lower-case extension of a file name without its dot, or "" when it has none. */
export function fileExtension(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

/** The kind of an upload by its extension: `.bin` firmware, `.ipk` package, anything else file. */
export function fileKindFor(name: string): FileKind {
  const extension = fileExtension(name);
  if (extension === "bin") return "firmware";
  if (extension === "ipk") return "package";
  return "file";
}

/** Whether a file name has one of the allowed extensions (given without dots, any case). */
export function validateFileType(
  name: string,
  allowedExtensions: readonly string[],
): ValidationResult<"invalidFileType"> {
  const extension = fileExtension(name);
  const allowed = allowedExtensions.map((entry) => entry.replace(/^\./, "").toLowerCase());
  return extension !== "" && allowed.includes(extension) ? null : "invalidFileType";
}

/** What an upload needs to know of a file: the browser's `File` fits. */
export interface UploadCandidate {
  readonly name: string;
  readonly size: number;
}

/** Options of {@link validateUpload}. */
export interface UploadOptions {
  /** When given, the file's extension must be one of these (without dots, any case). */
  allowedExtensions?: readonly string[];
  /** False: no size limit here, the server holds the file to its own (a firmware image's FIRMWARE_MAX_MB). */
  isSizeLimited?: boolean;
}

/**
 * An upload (spec section 5): a file with a name ("noFile"), a size above 0 ("emptyFile"), under
 * 25 MB ("tooLarge"; its message names the file) and, when asked, an allowed extension
 * ("invalidFileType").
 */
export function validateUpload(
  file: UploadCandidate | null | undefined,
  options: UploadOptions = {},
): ValidationResult<"noFile" | "emptyFile" | "tooLarge" | "invalidFileType"> {
  if (!file || file.name.trim().length === 0) return "noFile";
  if (!(file.size > 0)) return "emptyFile";
  if (options.isSizeLimited !== false && file.size >= UPLOAD_MAX_BYTES) return "tooLarge";
  return options.allowedExtensions ? validateFileType(file.name, options.allowedExtensions) : null;
}

/** A sequence/phrase dictionary upload: as {@link validateUpload}, and only `.txt` or `.csv`. */
export function validateDictionaryFile(
  file: UploadCandidate | null | undefined,
): ValidationResult<"noFile" | "emptyFile" | "tooLarge" | "invalidFileType"> {
  return validateUpload(file, { allowedExtensions: DICTIONARY_EXTENSIONS });
}

// The first field of a CSV line: up to the first comma or semicolon outside quotes; a quoted field
// may hold separators and doubled quotes.
function firstCsvField(line: string): string {
  const text = line.trim();
  if (!text.startsWith('"')) return text.split(/[,;]/, 1)[0] ?? "";
  let field = "";
  for (let i = 1; i < text.length; i++) {
    if (text[i] !== '"') {
      field += text[i];
    } else if (text[i + 1] === '"') {
      field += '"';
      i++;
    } else {
      break;
    }
  }
  return field;
}

/**
 * Parses a sequence/phrase dictionary: one entry per line (LF, CRLF or CR); entries are trimmed,
 * empty ones dropped and repeats kept once. For a `.csv` file only the first column counts.
 */
export function parseDictionary(text: string, fileName = "list.txt"): string[] {
  const isCsv = fileExtension(fileName) === "csv";
  const entries = text
    .replace(/^\uFEFF/, "")
    .split(/\r\n|\r|\n/)
    .map((line) => (isCsv ? firstCsvField(line) : line).trim())
    .filter((entry) => entry.length > 0);
  return [...new Set(entries)];
}

/** A parsed dictionary must hold at least one entry ("dictionaryEmpty"). */
export function validateDictionaryEntries(entries: readonly string[]): ValidationResult<"dictionaryEmpty"> {
  return entries.length > 0 ? null : "dictionaryEmpty";
}
