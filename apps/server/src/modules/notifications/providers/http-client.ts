import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";

// One small JSON-over-HTTP client for the Bot API and the webhook chats: bounded in time, reading
// at most a little of the answer, following no redirects (a redirect could lead a webhook to a
// private address), and never putting the URL (which holds a token or is the secret itself) in an
// error.

/** How long a request may take from start to the last byte of the answer. */
export const PROVIDER_HTTP_TIMEOUT_MS = 15_000;
/** Answers are read up to this size; the rest is dropped. */
const MAX_ANSWER_BYTES = 64 * 1024;

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 16 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 16 }),
};

/** An HTTP answer: its status, headers and (the first 64 KiB of) its body as text. */
export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A request that got no answer: refused, timed out, reset. `code` is the system's (ECONNREFUSED…). */
export class HttpRequestError extends Error {
  override name = "HttpRequestError";
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** Options of {@link postJson}. */
export interface PostJsonOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Resolves the host (the webhook guard checks each address here). */
  lookup?: LookupFunction;
}

/** POSTs `body` as JSON and answers what came back, whatever its status. */
export function postJson(url: URL, body: unknown, options: PostJsonOptions = {}): Promise<HttpAnswer> {
  const payload = Buffer.from(JSON.stringify(body), "utf8");
  const isHttps = url.protocol === "https:";
  const timeoutMs = options.timeoutMs ?? PROVIDER_HTTP_TIMEOUT_MS;
  return new Promise<HttpAnswer>((resolve, reject) => {
    let isSettled = false;
    const fail = (error: HttpRequestError) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = (isHttps ? https : http).request(url, {
      method: "POST",
      agent: isHttps ? agents.https : agents.http,
      lookup: options.lookup,
      headers: {
        "Content-Type": "application/json; charset=utf-8",
        "Content-Length": String(payload.length),
        "User-Agent": "Cellfleet",
      },
    });
    const timer = setTimeout(
      () => fail(new HttpRequestError(`No answer within ${timeoutMs} ms`, "ETIMEDOUT")),
      timeoutMs,
    );
    const onAbort = () => fail(new HttpRequestError("The request was cancelled", "ABORTED"));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error: NodeJS.ErrnoException) => {
      // The system's words (connect ECONNREFUSED 127.0.0.1:443) name an address, never the path.
      fail(new HttpRequestError(error.message, error.code ?? error.name));
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      response.on("error", (error: NodeJS.ErrnoException) =>
        fail(new HttpRequestError(error.message, error.code ?? "ERESPONSE")),
      );
      response.on("end", () => {
        if (isSettled) return;
        isSettled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString("utf8"),
        });
      });
    });
    request.end(payload);
  });
}

/** Seconds of a Retry-After header (delta-seconds or an HTTP date), as ms; null when absent. */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}
