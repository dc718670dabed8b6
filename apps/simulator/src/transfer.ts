import { createHash, type Hash } from "node:crypto";
import { COMMAND_CODES, type CommandFile } from "@cellfleet/contract";

/** Outcome of a file transfer: a completion code and a line of output for the command status. */
export interface TransferOutcome {
  code: number;
  output: string;
}

/** Options of a transfer; the defaults are what a router in the field would do. */
export interface TransferOptions {
  /** Longest a transfer may take in all before it counts as failed. */
  timeoutMs?: number;
  /** How many times a download cut off mid-way is resumed with a Range request (cellular links drop). */
  resumeAttempts?: number;
  /** Told how many bytes of a download have arrived, as a router reports progress. */
  onProgress?: (received: number, total: number | null) => void;
}

/** Longest a transfer may take before it counts as failed. */
const TRANSFER_TIMEOUT_MS = 60_000;
/** Resumes of one download after its connection dropped. */
const RESUME_ATTEMPTS = 5;

const failed = (output: string): TransferOutcome => ({ code: COMMAND_CODES.transferFailed, output });

/** Where a download stands: bytes so far and their running SHA-256 (nothing else is kept in memory). */
interface Progress {
  received: number;
  hash: Hash;
  resumes: number;
}

/** The start of a 206 answer's `Content-Range: bytes START-END/SIZE`, or null. */
function rangeStart(header: string | null): number | null {
  const match = header ? /^bytes (\d+)-\d+\/\d+$/.exec(header) : null;
  return match ? Number(match[1]) : null;
}

/**
 * Reads one response into `progress`, continuing where it stands when the server answered our
 * Range (206 from the right byte) and starting over otherwise. Answers the HTTP status; throws when
 * the body breaks off.
 */
async function readInto(
  response: Response,
  progress: Progress,
  options: TransferOptions,
  total: number | null,
) {
  if (
    response.status === 206 ? rangeStart(response.headers.get("content-range")) !== progress.received : true
  ) {
    progress.received = 0;
    progress.hash = createHash("sha256");
  }
  if (!response.body) return;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    progress.hash.update(value);
    progress.received += value.byteLength;
    options.onProgress?.(progress.received, total);
  }
}

/** GET with resume: a dropped connection continues from the last byte received, with the same URL. */
async function download(
  file: CommandFile,
  signal: AbortSignal,
  options: TransferOptions,
): Promise<TransferOutcome> {
  const progress: Progress = { received: 0, hash: createHash("sha256"), resumes: 0 };
  const attempts = options.resumeAttempts ?? RESUME_ATTEMPTS;
  for (;;) {
    const headers: Record<string, string> =
      progress.received > 0 ? { range: `bytes=${progress.received}-` } : {};
    try {
      const response = await fetch(file.url, { method: "GET", headers, signal });
      if (response.status !== 200 && response.status !== 206)
        return failed(`HTTP ${response.status} from GET`);
      await readInto(response, progress, options, file.size ?? null);
      break;
    } catch (error) {
      if (signal.aborted || progress.resumes >= attempts || Date.now() > file.expires_at) {
        return failed(`transfer failed after ${progress.resumes} resumes: ${(error as Error).message}`);
      }
      progress.resumes += 1;
    }
  }
  if (file.size !== undefined && progress.received !== file.size) {
    return failed(`size ${progress.received}, expected ${file.size}`);
  }
  const digest = progress.hash.digest("hex");
  if (file.sha256 !== undefined && digest !== file.sha256) return failed("SHA-256 mismatch");
  const resumed = progress.resumes > 0 ? `, resumed ${progress.resumes} time(s)` : "";
  return {
    code: COMMAND_CODES.success,
    output: `downloaded ${progress.received} bytes${resumed}, sha256 ${digest}`,
  };
}

/**
 * Does the HTTP(S) part of a file command as a router would: PUT uploads `body` to the signed URL;
 * GET downloads (resuming with Range when the link drops), then checks the size and SHA-256 the
 * command announced. The URL carries its own authorisation, so no other credential is sent.
 */
export async function transferFile(
  file: CommandFile,
  body: Uint8Array,
  now: number,
  options: TransferOptions = {},
): Promise<TransferOutcome> {
  if (file.expires_at < now) return failed("signed URL expired before use");
  const signal = AbortSignal.timeout(options.timeoutMs ?? TRANSFER_TIMEOUT_MS);
  if (file.method === "GET") return download(file, signal, options);
  try {
    const response = await fetch(file.url, {
      method: "PUT",
      // A copy over a plain ArrayBuffer: the DOM typing of fetch (seen when the server's typecheck
      // includes this file) takes no view over a SharedArrayBuffer-like buffer.
      body: new Uint8Array(body),
      headers: { "content-type": "application/octet-stream" },
      signal,
    });
    await response.arrayBuffer();
    if (!response.ok) return failed(`HTTP ${response.status} from PUT`);
    return { code: COMMAND_CODES.success, output: `uploaded ${body.byteLength} bytes` };
  } catch (error) {
    return failed(`transfer failed: ${(error as Error).message}`);
  }
}
