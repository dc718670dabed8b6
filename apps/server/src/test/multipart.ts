import { Readable } from "node:stream";
import { patternStream } from "./test-streams";

/** The boundary of every multipart body the tests build. */
export const TEST_BOUNDARY = "----cellfleet-test-boundary";
/** The content type that goes with {@link TEST_BOUNDARY}. */
export const MULTIPART_CONTENT_TYPE = `multipart/form-data; boundary=${TEST_BOUNDARY}`;

/** One part of a multipart body: a file (with a name) or a plain field. */
export interface TestPart {
  field?: string;
  /** The file name as a browser would send it; raw bytes allow names that are not UTF-8. */
  filename?: string | Buffer;
  bytes?: Buffer;
  /** A Content-Transfer-Encoding header for the part (browsers send none). */
  transferEncoding?: string;
}

function partHead(part: TestPart): Buffer {
  const field = part.field ?? "file";
  const disposition =
    part.filename === undefined
      ? Buffer.from(`Content-Disposition: form-data; name="${field}"`)
      : Buffer.concat([
          Buffer.from(`Content-Disposition: form-data; name="${field}"; filename="`),
          Buffer.isBuffer(part.filename) ? part.filename : Buffer.from(part.filename, "utf8"),
          Buffer.from('"'),
        ]);
  const lines = [
    "",
    ...(part.filename === undefined ? [] : ["Content-Type: application/octet-stream"]),
    ...(part.transferEncoding ? [`Content-Transfer-Encoding: ${part.transferEncoding}`] : []),
  ];
  return Buffer.concat([
    Buffer.from(`--${TEST_BOUNDARY}\r\n`),
    disposition,
    Buffer.from(`${lines.join("\r\n")}\r\n\r\n`),
  ]);
}

const CLOSE = Buffer.from(`--${TEST_BOUNDARY}--\r\n`);

/** A whole multipart/form-data body of these parts. */
export function multipartBody(parts: readonly TestPart[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) chunks.push(partHead(part), part.bytes ?? Buffer.alloc(0), Buffer.from("\r\n"));
  chunks.push(CLOSE);
  return Buffer.concat(chunks);
}

/**
 * A multipart body with one file of `total` pattern bytes, produced as it is read (never whole in
 * memory), with its exact length for Content-Length. `onChunk` counts the file's bytes handed out.
 */
export function multipartStream(
  filename: string,
  total: number,
  onChunk?: (bytes: number) => void,
): { stream: Readable; length: number } {
  const head = partHead({ filename });
  const tail = Buffer.concat([Buffer.from("\r\n"), CLOSE]);
  async function* body() {
    yield head;
    for await (const chunk of patternStream(total, undefined, onChunk)) yield chunk as Buffer;
    yield tail;
  }
  return { stream: Readable.from(body()), length: head.length + total + tail.length };
}
