import { createHash, randomUUID } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";
import { AppError } from "../errors";

/** What a finished put measured on the way: the byte count and the SHA-256 (lowercase hex). */
export interface StoredFile {
  size: number;
  sha256: string;
}

/** A byte range of a stored file, both ends inclusive as in HTTP's Range. */
export interface ByteRange {
  start: number;
  end: number;
}

/** An open read of a stored file (or of one range of it). */
export interface FileRead {
  stream: NodeJS.ReadableStream;
  /** The whole file's size, whatever range was asked for. */
  size: number;
  /** The bytes the stream yields; the whole file when no range was asked for. */
  range: ByteRange;
}

/** Options of one put. */
export interface PutOptions {
  /** The largest size accepted; a longer stream is aborted with FileTooLargeError and nothing is kept. */
  maxBytes?: number;
}

/**
 * Where file blobs live: the local disk (DATA_DIR/files) or S3-compatible object storage (S3_URL).
 * Keys are ids the server makes (see isStorageKey); no user- or device-sent path ever becomes one.
 */
export interface FileStorage {
  /** `local` or `s3`, for logs and health. */
  readonly kind: "local" | "s3";
  /**
   * Streams `body` into the file `key`, computing size and SHA-256 on the way; never holds the whole
   * file in memory. The file appears under its key only once complete: a failed or too-large put
   * leaves no partial file (and an older file under the same key untouched).
   */
  put(key: string, body: NodeJS.ReadableStream, options?: PutOptions): Promise<StoredFile>;
  /** Opens the file (or one range of it) for reading; FILE_NOT_FOUND when there is none. */
  get(key: string, range?: ByteRange): Promise<FileRead>;
  /** The file's size, or null when there is no such file. */
  stat(key: string): Promise<{ size: number } | null>;
  /** Whether a file is stored under `key`. */
  exists(key: string): Promise<boolean>;
  /** Removes the file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Releases connections; the storage is not used afterwards. */
  close(): Promise<void>;
}

/** Lowercase letters, digits, `-` and `_`, starting with a letter or digit: no dot, slash, backslash or NUL can reach a path. */
const STORAGE_KEY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,127}$/;

/** Whether `key` is a well-formed storage key (lowercase so case-insensitive disks never merge two). */
export function isStorageKey(key: string): boolean {
  return STORAGE_KEY_PATTERN.test(key);
}

/** Thrown for a key that is not a storage key: a server bug, never a client's mistake. */
export class InvalidStorageKeyError extends Error {
  override name = "InvalidStorageKeyError";
}

/** Throws InvalidStorageKeyError unless `key` is a storage key. */
export function assertStorageKey(key: string): void {
  if (!isStorageKey(key)) throw new InvalidStorageKeyError(`Not a storage key: ${JSON.stringify(key)}`);
}

/** A fresh random storage key. */
export function newStorageKey(): string {
  return randomUUID();
}

/** A put's stream ran past its `maxBytes`; answers BAD_REQUEST with 413. */
export class FileTooLargeError extends AppError {
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    super("BAD_REQUEST", `The file is larger than ${maxBytes} bytes`, { status: 413 });
    this.maxBytes = maxBytes;
  }
}

/** The error every backend throws for a key with no file. */
export function fileNotFound(key: string): AppError {
  return new AppError("FILE_NOT_FOUND", `No file ${key}`);
}

/**
 * A pass-through that counts and hashes what flows through it, and fails with FileTooLargeError
 * as soon as more than `maxBytes` have passed, so a too-large upload is cut off, not stored.
 */
export class MeasuringStream extends Transform {
  private readonly hash = createHash("sha256");
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(maxBytes: number = Number.POSITIVE_INFINITY) {
    super();
    this.maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      callback(new FileTooLargeError(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  /** Size and SHA-256 of everything that passed; call once the stream has ended. */
  result(): StoredFile {
    return { size: this.bytes, sha256: this.hash.digest("hex") };
  }
}

/** Checks a range against a file's size (both ends inclusive, start ≤ end < size). */
export function assertRangeWithin(range: ByteRange, size: number): void {
  if (!Number.isInteger(range.start) || !Number.isInteger(range.end))
    throw new RangeError("Range ends must be integers");
  if (range.start < 0 || range.start > range.end || range.end >= size) {
    throw new RangeError(`Range ${range.start}-${range.end} is outside a file of ${size} bytes`);
  }
}
