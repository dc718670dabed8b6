import { createHash } from "node:crypto";
import { COMMAND_CODES, type CommandFile } from "@cellfleet/contract";

/** Outcome of a file transfer: a completion code and a line of output for the command status. */
export interface TransferOutcome {
  code: number;
  output: string;
}

/** Longest a transfer may take before it counts as failed. */
const TRANSFER_TIMEOUT_MS = 60_000;

/**
 * Does the HTTP(S) part of a file command as a router would: PUT uploads `body` to the signed URL;
 * GET downloads, then checks the size and SHA-256 the command announced. The URL carries its own
 * authorisation, so no other credential is sent.
 */
export async function transferFile(
  file: CommandFile,
  body: Uint8Array,
  now: number,
): Promise<TransferOutcome> {
  if (file.expires_at < now)
    return { code: COMMAND_CODES.transferFailed, output: "signed URL expired before use" };
  try {
    const response = await fetch(file.url, {
      method: file.method,
      // A copy over a plain ArrayBuffer: the DOM typing of fetch (seen when the server's typecheck
      // includes this file) takes no view over a SharedArrayBuffer-like buffer.
      body: file.method === "PUT" ? new Uint8Array(body) : undefined,
      headers: file.method === "PUT" ? { "content-type": "application/octet-stream" } : undefined,
      signal: AbortSignal.timeout(TRANSFER_TIMEOUT_MS),
    });
    if (!response.ok)
      return { code: COMMAND_CODES.transferFailed, output: `HTTP ${response.status} from ${file.method}` };
    if (file.method === "PUT") {
      await response.arrayBuffer();
      return { code: COMMAND_CODES.success, output: `uploaded ${body.byteLength} bytes` };
    }
    const data = new Uint8Array(await response.arrayBuffer());
    if (file.size !== undefined && data.byteLength !== file.size) {
      return { code: COMMAND_CODES.transferFailed, output: `size ${data.byteLength}, expected ${file.size}` };
    }
    const digest = createHash("sha256").update(data).digest("hex");
    if (file.sha256 !== undefined && digest !== file.sha256) {
      return { code: COMMAND_CODES.transferFailed, output: "SHA-256 mismatch" };
    }
    return { code: COMMAND_CODES.success, output: `downloaded ${data.byteLength} bytes, sha256 ${digest}` };
  } catch (error) {
    return { code: COMMAND_CODES.transferFailed, output: `transfer failed: ${(error as Error).message}` };
  }
}
