import { z } from "zod";
import { UPLOAD_MAX_BYTES } from "./constants";
import { DEVICE_FILE_TYPES, type DeviceFileType } from "./lists";
import { fileKindFor, validateUpload } from "./validators/files";
import type { ValidationResult } from "./validators/keys";

// Files of spec section 3: what people upload for commands to carry (common files), and what routers
// send back (device files). The API bodies and answers of spec section 7's file calls.

/** File types people upload (spec section 3: "file, package, firmware, bin for common"). */
export const COMMON_FILE_TYPES = ["file", "package", "firmware", "bin"] as const;
/** A common file's type. */
export type CommonFileType = (typeof COMMON_FILE_TYPES)[number];

/** Every file type. */
export const FILE_TYPES = [...COMMON_FILE_TYPES, ...DEVICE_FILE_TYPES] as const;
/** A file's type. */
export type FileType = (typeof FILE_TYPES)[number];
export const FileTypeSchema = z.enum(FILE_TYPES);
export const CommonFileTypeSchema = z.enum(COMMON_FILE_TYPES);
export const DeviceFileTypeSchema = z.enum(DEVICE_FILE_TYPES);

/** Device file types whose copies the domain settings limit (spec section 3, Domain settings). */
export const RETAINED_FILE_TYPES = ["backup", "journal"] as const;
/** A device file type with a copies limit. */
export type RetainedFileType = (typeof RETAINED_FILE_TYPES)[number];

/**
 * A file or device id as the API takes it: letters, digits, `_` and `-` (the server's ids are
 * UUIDs), so no control character or path separator ever reaches a query or a path.
 */
export const RecordIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/);

/** Whether a file type is one people upload. */
export function isCommonFileType(value: string): value is CommonFileType {
  return (COMMON_FILE_TYPES as readonly string[]).includes(value);
}

/** Whether a file type is one routers upload. */
export function isDeviceFileType(value: string): value is DeviceFileType {
  return (DEVICE_FILE_TYPES as readonly string[]).includes(value);
}

/** Backup and journal statuses (spec section 4): a copy that arrived whole, or one that did not. */
export const FILE_STATUSES = ["completed", "failed"] as const;
/** A file's status. */
export type FileStatus = (typeof FILE_STATUSES)[number];

/** `metadata.user_id` of files the server made itself; they cannot be deleted (spec section 3). */
export const SYSTEM_FILE_OWNER = "system";

/** The longest file name kept; longer names are refused. */
export const FILE_NAME_MAX_LENGTH = 255;

/** A file as the API answers it (spec section 3, File). Sizes in bytes, dates in ms since the epoch. */
export const FileSchema = z.object({
  _id: z.string(),
  filename: z.string(),
  file_type: FileTypeSchema,
  /** Bytes ("length/size" of the spec). */
  size: z.number().int().min(0),
  /** SHA-256 of the content, lowercase hex. */
  sha256: z.string(),
  /** When it was uploaded ("uploadDate/create_date"). */
  create_date: z.number(),
  status: z.enum(FILE_STATUSES),
  metadata: z.object({
    /** Who uploaded it: a user id, 'system', or null when a router sent it. */
    user_id: z.string().nullable(),
    /** The uploader's login, when a person uploaded it. */
    user_name: z.string().nullable(),
    /** The router a device file belongs to. */
    device_id: z.string().nullable(),
    /** The command (and its execution on that router) the router uploaded it for. */
    command_id: z.string().nullable(),
    execution_id: z.string().nullable(),
  }),
  /** How many times the router sent the same backup again since (it is noted, not stored again). */
  repeats: z.number().int().min(0),
  /** The last time the router sent it again, or null. */
  repeat_date: z.number().nullable(),
});
/** A file. */
export type FileDto = z.infer<typeof FileSchema>;

/** Whether a person may ever delete this file: 'system' files cannot be (spec section 3). */
export function isFileDeletable(file: { readonly metadata: { readonly user_id: string | null } }): boolean {
  return file.metadata.user_id !== SYSTEM_FILE_OWNER;
}

/**
 * POST /api/commonfiles: no body lists the common files; `device_id` lists a router's files (of
 * one type, and one command's report files with `command_id`); a common `file_type` alone lists
 * that type.
 */
export const CommonFilesRequestSchema = z
  .object({
    file_type: FileTypeSchema.optional(),
    device_id: RecordIdSchema.optional(),
    command_id: RecordIdSchema.optional(),
  })
  .nullish();
/** Body of POST /api/commonfiles. */
export type CommonFilesRequest = z.input<typeof CommonFilesRequestSchema>;

/** Answer of POST /api/commonfiles: newest first. */
export const FileListSchema = z.object({ items: z.array(FileSchema) });
/** A file list. */
export type FileList = z.infer<typeof FileListSchema>;

/** DELETE /api/file/many: the ids to delete, all or none. */
export const DeleteFilesRequestSchema = z.object({
  targets: z.array(RecordIdSchema).max(1000),
});
/** Answer of the file deletes: how many went. */
export const DeleteFilesResultSchema = z.object({ deleted: z.number().int() });

/** POST /api/files/{id} with `filename` renames a common file; with no body it answers the file. */
export const RenameFileSchema = z.object({
  filename: z.string().trim().min(1).max(FILE_NAME_MAX_LENGTH),
});

/** The kinds of POST /api/file/{kind} (spec section 7). */
export const UPLOAD_KINDS = ["firmware", "package", "file"] as const;
export const UploadKindSchema = z.enum(UPLOAD_KINDS);

/**
 * A file name as kept: the last segment of whatever path a browser sent (some send
 * `C:\fakepath\x.bin`), without control characters, trimmed. Empty when nothing is left.
 */
export function plainFileName(name: string): string {
  const base = name.slice(Math.max(name.lastIndexOf("/"), name.lastIndexOf("\\")) + 1);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
}

/**
 * Whether a file name fits a common file type (spec section 5): firmware is `.bin`, a package
 * `.ipk`, a plain file anything else; `bin` (binaries for commands to carry) takes any name.
 */
export function fileTypeAccepts(fileType: CommonFileType, name: string): boolean {
  if (fileType === "bin") return true;
  return fileKindFor(name) === fileType;
}

/** The extension a common file type asks for, for messages ("" when any will do). */
export function expectedExtension(fileType: CommonFileType): string {
  if (fileType === "firmware") return "bin";
  if (fileType === "package") return "ipk";
  return "";
}

/**
 * An upload of a common file (spec section 5), checked in the browser before sending and again by
 * the server: a name, a size above 0, under 25 MB, a name of at most 255 characters, and an
 * extension that fits the type.
 */
export function validateCommonUpload(
  fileType: CommonFileType,
  file: { readonly name: string; readonly size: number } | null | undefined,
): ValidationResult<"noFile" | "emptyFile" | "tooLarge" | "invalidFileType"> {
  // A firmware image may be larger than 25 MB: the server's FIRMWARE_MAX_MB decides (issue 27 item 15).
  const problem = validateUpload(file, { isSizeLimited: fileType !== "firmware" });
  if (problem !== null || !file) return problem ?? "noFile";
  const name = plainFileName(file.name);
  if (name.length === 0 || name.length > FILE_NAME_MAX_LENGTH) return "noFile";
  return fileTypeAccepts(fileType, name) ? null : "invalidFileType";
}

/** The largest body a router may upload for one command: one byte under the 25 MB limit. */
export const DEVICE_UPLOAD_MAX_BYTES = UPLOAD_MAX_BYTES - 1;

/** The name a router's upload gets when the command names none: `backup-RUT955-20260101-120000.tar.gz`. */
export function deviceFileName(kind: DeviceFileType, ident: string, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d{3}Z$/, "")
    .replaceAll("-", "")
    .replaceAll(":", "")
    .replace("T", "-");
  const extension = kind === "backup" ? "tar.gz" : kind === "journal" ? "log" : "txt";
  return `${kind}-${ident}-${stamp}.${extension}`;
}
