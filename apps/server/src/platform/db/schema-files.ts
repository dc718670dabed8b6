import type { FileStatus, FileType } from "@cellfleet/contract";
import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

type Timestamp = ColumnType<Date, Date, Date>;

/** bigint: node-postgres and PGlite read it as a string. */
type BigintColumn = ColumnType<string, number | string, number | string>;

/** Stored files (modules/files): the id is the blob's storage key (0010_files). */
export interface FilesTable {
  id: string;
  domain_id: string;
  file_type: FileType;
  filename: string;
  size: BigintColumn;
  sha256: string;
  status: ColumnType<FileStatus, FileStatus | undefined, FileStatus>;
  /** A user id, 'system', or null for a router's upload. */
  user_id: string | null;
  device_id: string | null;
  command_id: string | null;
  execution_id: string | null;
  repeats: Generated<number>;
  repeat_time: Timestamp | null;
  create_time: Timestamp;
}

/** State of an upload a router was told to make. */
export type FileTransferState = "expected" | "receiving" | "completed" | "failed" | "expired";

/** Uploads routers were given a signed URL for, checked when the body arrives (0010_files). */
export interface FileTransfersTable {
  id: string;
  domain_id: string;
  device_id: string;
  file_type: "backup" | "journal" | "report";
  command_id: string;
  execution_id: string;
  filename: string;
  max_bytes: BigintColumn;
  state: FileTransferState;
  error: string | null;
  file_id: string | null;
  expires_at: Timestamp;
  create_time: Timestamp;
  finish_time: Timestamp | null;
}

export type FileRow = Selectable<FilesTable>;
export type NewFileRow = Insertable<FilesTable>;
export type FileTransferRow = Selectable<FileTransfersTable>;
export type NewFileTransferRow = Insertable<FileTransfersTable>;
