import { createHash, randomBytes } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import {
  assertRangeWithin,
  assertStorageKey,
  type ByteRange,
  type FileStorage,
  fileNotFound,
  MeasuringStream,
} from "./file-storage";

/** Unfinished writes live here until they are complete and renamed into place. */
const PARTIAL_DIR = ".partial";

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === "ENOENT";
}

/** Makes a written file's bytes durable. */
async function syncFile(file: string): Promise<void> {
  const handle = await open(file, "r+");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a directory's entries (a rename) durable; a no-op where directories cannot be opened for sync. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, "r");
  try {
    await handle.sync();
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code !== "EINVAL" &&
      (error as NodeJS.ErrnoException).code !== "EISDIR"
    ) {
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Files on the local disk under `root` (DATA_DIR/files), spread over 256 folders by the first
 * byte of the key's SHA-256 so no folder grows huge. A put writes `.partial/…`, fsyncs it and
 * renames it into place, so a crash never leaves a half file under a real key.
 */
export function createLocalFileStorage(root: string): FileStorage {
  const partialDir = path.join(root, PARTIAL_DIR);
  const pathOf = (key: string): string => {
    assertStorageKey(key);
    const shard = createHash("sha256").update(key).digest("hex").slice(0, 2);
    return path.join(root, shard, key);
  };
  const statOf = async (key: string) => {
    try {
      const info = await stat(pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  };

  return {
    kind: "local",

    async put(key, body, options = {}) {
      const target = pathOf(key);
      await mkdir(partialDir, { recursive: true });
      await mkdir(path.dirname(target), { recursive: true });
      const partial = path.join(partialDir, `${key}.${randomBytes(6).toString("hex")}`);
      const measuring = new MeasuringStream(options.maxBytes);
      try {
        await pipeline(body, measuring, createWriteStream(partial, { flags: "wx" }));
        // The bytes reach the disk before the rename publishes them under the real key.
        await syncFile(partial);
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      await syncDirectory(path.dirname(target));
      return measuring.result();
    },

    async get(key, range?: ByteRange) {
      const info = await statOf(key);
      if (!info) throw fileNotFound(key);
      const wanted = range ?? { start: 0, end: info.size - 1 };
      if (range) assertRangeWithin(range, info.size);
      // An empty file has no byte to start at (its range is 0…-1), so it is read without one.
      const stream =
        info.size === 0
          ? createReadStream(pathOf(key))
          : createReadStream(pathOf(key), { start: wanted.start, end: wanted.end });
      await new Promise<void>((resolve, reject) => {
        stream.once("open", () => resolve());
        stream.once("error", (error) => reject(isMissing(error) ? fileNotFound(key) : error));
      });
      return { stream, size: info.size, range: wanted };
    },

    stat: statOf,

    async exists(key) {
      return (await statOf(key)) !== null;
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },

    async close() {},
  };
}
