import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import type { ClientRequest } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import type { FileStorage, StoredFile } from "../platform/storage/file-storage";

/** `total` bytes of a repeatable pattern in 64 KiB chunks, made as they are read. */
export function patternStream(
  total: number,
  chunkBytes = 64 * 1024,
  onChunk?: (bytes: number) => void,
): Readable {
  let sent = 0;
  let counter = 0;
  return new Readable({
    read() {
      if (sent >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(chunkBytes, total - sent);
      const chunk = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4)
        chunk.writeUInt32LE(counter++ >>> 0, i - (i + 4 > size ? i + 4 - size : 0));
      sent += size;
      onChunk?.(size);
      // Chunks arrive as a network's would, one turn of the event loop apart, so timers still run.
      setImmediate(() => this.push(chunk));
    },
  });
}

export async function sha256Of(stream: Readable): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest("hex") };
}

export async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

/** Sums the sizes of every file under `dir` (0 for a missing folder). */
export async function bytesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    total += await stat(path.join(entry.parentPath, entry.name)).then(
      (info) => info.size,
      () => 0,
    );
  }
  return total;
}

/**
 * Runs a put of `total` bytes and samples, every 20 ms, how many bytes the source has handed out but
 * the disk behind the backend does not hold yet: what the put (and, for S3, the test server) keeps
 * in memory. Returns the put's result and the largest such figure.
 */
export async function putMeasuringBytesInFlight(
  storage: FileStorage,
  diskDir: string,
  key: string,
  total: number,
): Promise<{ stored: StoredFile; peakInFlight: number }> {
  const before = await bytesUnder(diskDir);
  let produced = 0;
  const source = patternStream(total, undefined, (bytes) => {
    produced += bytes;
  });
  let peakInFlight = 0;
  let isDone = false;
  const sampling = (async () => {
    while (!isDone) {
      // Disk first, source second: the figure can only overstate what is in memory. Only while the
      // source still produces: a put that buffered the file would show it then, and afterwards the
      // test server moves parts into the object, which a folder walk cannot count reliably.
      const onDisk = (await bytesUnder(diskDir)) - before;
      if (produced < total) peakInFlight = Math.max(peakInFlight, produced - onDisk);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  try {
    const stored = await storage.put(key, source);
    return { stored, peakInFlight };
  } finally {
    isDone = true;
    await sampling;
  }
}

/**
 * Writes 512-byte pieces of a request body every `everyMs` until `stopAfter` bytes (then ends the
 * request) or until the request is destroyed: a sender that keeps writing while it is answered.
 * Answers the interval, so a caller can stop it when the request fails.
 */
export function trickleBody(
  request: ClientRequest,
  options: { everyMs: number; stopAfter: number },
): ReturnType<typeof setInterval> {
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= options.stopAfter || request.destroyed) {
      clearInterval(timer);
      if (!request.destroyed) request.end();
      return;
    }
    request.write(Buffer.alloc(512, 1));
    sent += 512;
  }, options.everyMs);
  return timer;
}
