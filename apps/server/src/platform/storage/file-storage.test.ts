import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type S3TestServer, startS3TestServer } from "../../test/s3-test-server";
import { patternStream, putMeasuringBytesInFlight, readAll, sha256Of } from "../../test/test-streams";
import { AppError } from "../errors";
import { type FileStorage, FileTooLargeError, InvalidStorageKeyError, newStorageKey } from "./file-storage";
import { createLocalFileStorage } from "./local-storage";
import { createS3FileStorage } from "./s3-storage";

/** One backend under test: how to open it, and what it holds besides finished files. */
interface Backend {
  name: string;
  open(): Promise<{
    storage: FileStorage;
    /** Unfinished writes still lying around. */
    leftovers(): Promise<string[]>;
    /** The folder whose files hold what is stored (s3rver's, for S3). */
    diskDir: string;
    close(): Promise<void>;
  }>;
}

const BACKENDS: Backend[] = [
  {
    name: "local disk",
    async open() {
      const root = await mkdtemp(path.join(os.tmpdir(), "cellfleet-storage-"));
      const storage = createLocalFileStorage(root);
      return {
        storage,
        leftovers: async () => readdir(path.join(root, ".partial")).catch(() => []),
        diskDir: root,
        close: () => rm(root, { recursive: true, force: true }),
      };
    },
  },
  {
    name: "S3 (s3rver)",
    async open() {
      const server: S3TestServer = await startS3TestServer();
      const storage = createS3FileStorage(server.config);
      return {
        storage,
        // s3rver cannot abort a multipart upload (real S3, MinIO and Ceph can); objects are what count.
        leftovers: async () => [],
        diskDir: server.directory,
        close: async () => {
          await storage.close();
          await server.close();
        },
      };
    },
  },
];

const MIB = 1024 * 1024;

describe.each(BACKENDS)("FileStorage on $name", (backend) => {
  let storage: FileStorage;
  let leftovers: () => Promise<string[]>;
  let diskDir: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ storage, leftovers, diskDir, close } = await backend.open());
  });
  afterAll(async () => {
    await close();
  });

  it("stores a stream and reads it back, with its size and SHA-256 measured on the way", async () => {
    const key = newStorageKey();
    const body = Buffer.from("backup of RUT955\n".repeat(1000));
    const stored = await storage.put(key, Readable.from([body.subarray(0, 5000), body.subarray(5000)]));
    expect(stored).toEqual({ size: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    expect(await storage.exists(key)).toBe(true);
    expect(await storage.stat(key)).toEqual({ size: body.length });
    const read = await storage.get(key);
    expect(read.size).toBe(body.length);
    expect(read.range).toEqual({ start: 0, end: body.length - 1 });
    expect((await readAll(read.stream)).equals(body)).toBe(true);
  });

  it("reads one range of a file, both ends inclusive", async () => {
    const key = newStorageKey();
    const body = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await storage.put(key, Readable.from([body]));
    const read = await storage.get(key, { start: 10, end: 19 });
    expect(read.size).toBe(256);
    expect(read.range).toEqual({ start: 10, end: 19 });
    expect([...(await readAll(read.stream))]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    const tail = await storage.get(key, { start: 250, end: 255 });
    expect([...(await readAll(tail.stream))]).toEqual([250, 251, 252, 253, 254, 255]);
    await expect(storage.get(key, { start: 200, end: 256 })).rejects.toThrow(RangeError);
  });

  it("stores and reads an empty file", async () => {
    const key = newStorageKey();
    const stored = await storage.put(key, Readable.from([]));
    expect(stored).toEqual({ size: 0, sha256: createHash("sha256").digest("hex") });
    const read = await storage.get(key);
    expect(read.size).toBe(0);
    expect((await readAll(read.stream)).length).toBe(0);
  });

  it("replaces a file put again under the same key", async () => {
    const key = newStorageKey();
    await storage.put(key, Readable.from([Buffer.from("first version")]));
    await storage.put(key, Readable.from([Buffer.from("second")]));
    expect((await readAll((await storage.get(key)).stream)).toString()).toBe("second");
  });

  it("deletes idempotently, and a missing file reads as FILE_NOT_FOUND", async () => {
    const key = newStorageKey();
    await storage.put(key, Readable.from([Buffer.from("x")]));
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.stat(key)).toBeNull();
    const missing = await storage.get(key).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(AppError);
    expect((missing as AppError).code).toBe("FILE_NOT_FOUND");
  });

  it("aborts a too-large stream with FileTooLargeError and keeps nothing, not even part", async () => {
    const key = newStorageKey();
    const refused = await storage
      .put(key, patternStream(5000, 1000), { maxBytes: 4096 })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(FileTooLargeError);
    expect((refused as FileTooLargeError).code).toBe("BAD_REQUEST");
    expect(await storage.exists(key)).toBe(false);
    expect(await leftovers()).toEqual([]);
    // Exactly the limit is accepted.
    expect((await storage.put(key, patternStream(4096, 1000), { maxBytes: 4096 })).size).toBe(4096);
  });

  it("aborts a too-large multi-part upload and leaves the older file under the key untouched", async () => {
    const key = newStorageKey();
    await storage.put(key, Readable.from([Buffer.from("the good copy")]));
    const refused = storage.put(key, patternStream(12 * MIB), { maxBytes: 11 * MIB });
    await expect(refused).rejects.toBeInstanceOf(FileTooLargeError);
    expect((await readAll((await storage.get(key)).stream)).toString()).toBe("the good copy");
    expect(await leftovers()).toEqual([]);
  });

  it("fails a put whose body breaks off, leaving no file", async () => {
    const key = newStorageKey();
    const broken = new Readable({
      read() {
        this.push(Buffer.alloc(1000, 1));
        this.destroy(new Error("connection reset by the router"));
      },
    });
    await expect(storage.put(key, broken)).rejects.toThrow("connection reset by the router");
    expect(await storage.exists(key)).toBe(false);
    expect(await leftovers()).toEqual([]);
  });

  it("streams a 24 MB file in and out without holding it in memory", async () => {
    const key = newStorageKey();
    const total = 24 * MIB;
    const expected = await sha256Of(patternStream(total));
    const { stored, peakInFlight } = await putMeasuringBytesInFlight(storage, diskDir, key, total);
    expect(stored).toEqual(expected);
    // At most one S3 part (5 MiB) and some stream buffers are in memory at once; never the file.
    expect(peakInFlight).toBeLessThan(total / 3);
    const read = await storage.get(key);
    let chunks = 0;
    let largestChunk = 0;
    const hash = createHash("sha256");
    for await (const chunk of read.stream) {
      chunks += 1;
      largestChunk = Math.max(largestChunk, (chunk as Buffer).length);
      hash.update(chunk as Buffer);
    }
    expect(hash.digest("hex")).toBe(expected.sha256);
    // The read arrives as a stream of small chunks, not as one buffered file.
    expect(largestChunk).toBeLessThanOrEqual(MIB);
    expect(chunks).toBeGreaterThan(24);
  }, 60_000);

  it.each([
    "../x",
    "../../etc/passwd",
    "/etc/passwd",
    "a/b",
    "a\\b",
    "..",
    ".partial",
    "a\0b",
    "",
    "Upper",
    "x".repeat(129),
    "name with space",
  ])("refuses the key %j before it reaches the disk or the bucket", async (key) => {
    await expect(storage.put(key, Readable.from([Buffer.from("x")]))).rejects.toBeInstanceOf(
      InvalidStorageKeyError,
    );
    await expect(storage.get(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.exists(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
    await expect(storage.delete(key)).rejects.toBeInstanceOf(InvalidStorageKeyError);
  });
});
