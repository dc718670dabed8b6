import { pipeline, Readable, Transform, type TransformCallback } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { FIRMWARE_STATUS } from "@cellfleet/contract";
import { type FileStorage, FileTooLargeError } from "../../platform/storage/file-storage";

/** How a fetch ended: the file stored whole, or the status (and why) the rule gets instead. */
export type FetchOutcome =
  | { kind: "stored"; filename: string; size: number; sha256: string }
  | { kind: "refused"; status: number; error: string | null };

export interface FetchLimits {
  /** The longest wait for the answer's headers, and between two pieces of its body. */
  timeoutMs: number;
  maxBytes: number;
}

/** The name a fetched file is kept under: the last segment of the URL answered, or firmware.bin. */
export function firmwareFilename(url: string): string {
  let segment = "";
  try {
    segment = decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");
  } catch {
    segment = "";
  }
  // Only a plain name: no path, no control characters, at most 255 characters.
  const cleaned = segment.replace(/[\\/\p{Cc}]/gu, "").slice(0, 255);
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "firmware.bin" : cleaned;
}

/** A connection failure in words: the system's code (ECONNREFUSED…) when undici gives one. */
function describeFailure(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ""}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Streams the file at `url` into storage under `key` (never whole in memory; size and SHA-256
 * measured on the way by the storage). `onAccepted` runs once the server answered 2xx, before the
 * body. A server that sends nothing for `timeoutMs` (before the headers or between two pieces)
 * ends the fetch as Error 240, as does a refused connection or a file over `maxBytes`; an HTTP
 * refusal keeps its code (spec section 4). `signal` is the job's: a stopping node aborts it.
 */
export async function fetchFirmwareIntoStorage(
  storage: FileStorage,
  url: string,
  key: string,
  limits: FetchLimits,
  signal: AbortSignal,
  onAccepted: () => Promise<void>,
): Promise<FetchOutcome> {
  const controller = new AbortController();
  let isTimedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      isTimedOut = true;
      controller.abort(new Error("timed out"));
    }, limits.timeoutMs);
  };
  const abortWithJob = () => controller.abort(signal.reason);
  signal.addEventListener("abort", abortWithJob, { once: true });
  const seconds = Math.round(limits.timeoutMs / 100) / 10;
  const timedOut = (): FetchOutcome => ({
    kind: "refused",
    status: FIRMWARE_STATUS.error,
    error: `No answer from the server for ${seconds} s`,
  });
  arm();
  try {
    let response: Response;
    try {
      response = await fetch(url, { signal: controller.signal, redirect: "follow" });
    } catch (error) {
      if (signal.aborted) throw error;
      if (isTimedOut) return timedOut();
      return { kind: "refused", status: FIRMWARE_STATUS.error, error: describeFailure(error) };
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      const status = response.ok ? FIRMWARE_STATUS.error : response.status;
      return { kind: "refused", status, error: response.ok ? "The answer had no body" : null };
    }
    arm();
    await onAccepted();
    const watch = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
        arm();
        callback(null, chunk);
      },
    });
    const body = pipeline(Readable.fromWeb(response.body as WebReadableStream), watch, () => {
      // The storage's put sees the error through `watch`, which the pipeline destroys with it.
    });
    try {
      const stored = await storage.put(key, body, { maxBytes: limits.maxBytes });
      return { kind: "stored", filename: firmwareFilename(response.url || url), ...stored };
    } catch (error) {
      if (signal.aborted) throw error;
      if (isTimedOut) return timedOut();
      if (error instanceof FileTooLargeError)
        return {
          kind: "refused",
          status: FIRMWARE_STATUS.error,
          error: `The file is larger than ${Math.floor(limits.maxBytes / 1024 / 1024)} MB`,
        };
      return { kind: "refused", status: FIRMWARE_STATUS.error, error: describeFailure(error) };
    }
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", abortWithJob);
  }
}
