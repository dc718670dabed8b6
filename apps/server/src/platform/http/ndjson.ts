import { Readable } from "node:stream";
import type { FastifyReply, FastifyRequest } from "fastify";
import { toErrorBody } from "../errors";

/** Content type of newline-delimited JSON answers. */
export const NDJSON_TYPE = "application/x-ndjson; charset=utf-8";

/** A value already serialised as one line of JSON (built by the database, say): written as it is. */
export class JsonLine {
  constructor(readonly text: string) {}
}

/** One batch as NDJSON text: a line per value, each ended by a newline. */
function ndjsonText(batch: readonly unknown[]): string {
  let text = "";
  for (const item of batch) text += `${item instanceof JsonLine ? item.text : JSON.stringify(item)}\n`;
  return text;
}

/**
 * Starts a generator so that what fails before its first item (403, 404, 400) is thrown here and
 * answered as an ordinary error with its status, not as a 200 stream.
 */
export async function primed<T>(items: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await items.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* items;
  })();
}

/**
 * A readable of NDJSON where each yielded batch (an array of values) becomes one write of one line
 * per value: a line per write would cost a syscall and a chunk header each. A failure after the
 * first batch ends the answer with a `{code,message}` line.
 */
export function ndjsonStream(request: FastifyRequest, batches: AsyncGenerator<readonly unknown[]>): Readable {
  return Readable.from(
    (async function* () {
      let isStarted = false;
      try {
        for await (const batch of batches) {
          isStarted = true;
          if (batch.length > 0) yield ndjsonText(batch);
        }
      } catch (error) {
        if (!isStarted) throw error;
        request.log.error({ err: error }, "a streamed answer failed");
        yield `${JSON.stringify(toErrorBody(error))}\n`;
      }
    })(),
  );
}

/** Sends batches of values as NDJSON, answering errors met before the first batch with their status. */
export async function sendNdjson(
  request: FastifyRequest,
  reply: FastifyReply,
  batches: AsyncGenerator<readonly unknown[]>,
): Promise<FastifyReply> {
  const started = await primed(batches);
  return reply.type(NDJSON_TYPE).send(ndjsonStream(request, started));
}

/**
 * Sends batches that are all known at once (nothing slow to wait for between them) as one NDJSON body
 * with its length: headers and body leave in one write, with no stream or chunk framing. A failure
 * is answered as an ordinary error with its status.
 */
export async function sendNdjsonWhole(
  reply: FastifyReply,
  batches: AsyncGenerator<readonly unknown[]>,
): Promise<FastifyReply> {
  let text = "";
  for await (const batch of batches) text += ndjsonText(batch);
  return reply.type(NDJSON_TYPE).send(text);
}
