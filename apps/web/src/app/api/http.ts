import type {
  ApiAnswer,
  ApiCallRoute,
  ApiDownloadRoute,
  ApiLine,
  ApiStreamRoute,
  ApiUploadRoute,
} from "@cellfleet/contract";
import type { z } from "zod";
import { loadingStore } from "../loading/loadingStore";
import { sessionStore } from "../session/sessionStore";
import { ApiError } from "./ApiError";
import {
  type BodyOption,
  type OptionsArgs,
  type ParamsOption,
  type RouteBody,
  resolveRoute,
} from "./apiRoute";
import { handleTransportError } from "./handleTransportError";
import { saveBlob } from "./saveBlob";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** What every call may say besides its route, params and body. */
interface CallOptions<T> {
  signal?: AbortSignal;
  /**
   * Validates the answer; a mismatch is reported like a server error. A loader (`() => import(…)`)
   * is fetched alongside the call, so a page shown before the console (registration) keeps zod out
   * of its first bundle. The signed-in start passes none: it takes the server's checked answers as
   * they are (ADR 026).
   */
  schema?: z.ZodType<T> | (() => Promise<z.ZodType<T>>);
  /**
   * The caller shows errors itself (a form next to its fields). Logging out on a dead session
   * still happens; only the info message is left out.
   */
  quiet?: boolean;
}

/** Options of {@link apiRequest}: the route's params and body, typed from the contract's map. */
export type RequestOptions<R extends ApiCallRoute> = ParamsOption<R> &
  BodyOption<RouteBody<R>> &
  CallOptions<ApiAnswer<R>>;

async function readErrorBody(response: Response): Promise<{ code: string | null; message: string }> {
  try {
    const body = (await response.json()) as { code?: unknown; message?: unknown };
    return {
      code: typeof body.code === "string" ? body.code : null,
      message: typeof body.message === "string" ? body.message : response.statusText,
    };
  } catch {
    return { code: null, message: response.statusText };
  }
}

/** Options of {@link apiStream}: like a request, plus a handler called with each parsed line. */
export type StreamOptions<R extends ApiStreamRoute> = ParamsOption<R> &
  BodyOption<RouteBody<R>> &
  Pick<CallOptions<ApiLine<R>>, "signal" | "quiet"> & {
    /** Validates each line; a mismatch is reported like a server error and ends the stream. */
    schema?: z.ZodType<ApiLine<R>>;
    onLine: (line: ApiLine<R>) => void;
  };

/** Options of {@link apiDownload}. */
export type DownloadOptions<R extends ApiDownloadRoute> = ParamsOption<R> &
  BodyOption<RouteBody<R>> &
  Pick<CallOptions<unknown>, "signal" | "quiet">;

interface SendOptions {
  method: HttpMethod;
  body?: object;
  signal?: AbortSignal;
  quiet?: boolean;
}

/**
 * Sends a call and answers the response once its status is known to be good; a failed call is
 * handled here, once, by the decision table of spec section 8, and thrown as ApiError.
 */
async function send(path: string, options: SendOptions, accept: string): Promise<Response> {
  const method = options.method;
  const token = sessionStore.token();
  const headers: Record<string, string> = { Accept: accept };
  if (token) headers.Token = token;
  let payload: string | undefined;
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(token ? { ...options.body, token } : (options.body ?? {}));
  }
  let response: Response;
  try {
    response = await fetch(path, { method, headers, body: payload, signal: options.signal });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw handleTransportError(new ApiError(0, null, String(cause), path), options.quiet ?? false);
  }
  if (!response.ok) {
    const { code, message } = await readErrorBody(response);
    // A query's read of a missing object is shown by its page (QueryState's MissingEntity), not as a
    // message: after a delete, a list or page still open must not report the object gone (issue 11).
    const isPageRead = response.status === 404 && options.signal !== undefined;
    throw handleTransportError(
      new ApiError(response.status, code, message, path),
      (options.quiet ?? false) || isPageRead,
    );
  }
  return response;
}

function parseWith<T>(
  schema: z.ZodType<T> | undefined,
  data: unknown,
  status: number,
  path: string,
  quiet: boolean,
): T {
  if (!schema) return data as T;
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  throw handleTransportError(new ApiError(status, null, parsed.error.message, path), quiet);
}

/**
 * The one way the web talks to the API (spec section 7): the token goes in the `Token` header on
 * every call and also in the JSON body on non-GET calls. Errors are handled here, once, by the
 * decision table of spec section 8, and then thrown as ApiError for the caller's own state.
 */
export async function apiRequest<R extends ApiCallRoute>(
  route: R,
  ...[options = {} as RequestOptions<R>]: OptionsArgs<RequestOptions<R>>
): Promise<ApiAnswer<R>> {
  const { method, path } = resolveRoute(route, options.params);
  const done = loadingStore.track();
  const source = options.schema;
  const schema = typeof source === "function" ? source() : Promise.resolve(source);
  // Not awaited until the answer is in: a failed load must not surface as an unhandled rejection.
  schema.catch(() => undefined);
  try {
    const response = await send(path, { ...options, method }, "application/json");
    const data: unknown = response.status === 204 ? null : await response.json();
    return parseWith(await schema, data, response.status, path, options.quiet ?? false);
  } finally {
    done();
  }
}

/**
 * A streamed list (newline-delimited JSON, design brief): each line is parsed and handed to
 * `onLine` as soon as it arrives, so the first rows render before the last are read. Errors before
 * the stream starts go through the same handling as {@link apiRequest}; a line carrying `code`
 * (an error met after streaming began) is handled the same way. Answers the number of lines read.
 */
export async function apiStream<R extends ApiStreamRoute>(
  route: R,
  options: StreamOptions<R>,
): Promise<number> {
  const { method, path } = resolveRoute(route, options.params);
  const quiet = options.quiet ?? false;
  const done = loadingStore.track();
  try {
    const response = await send(path, { ...options, method }, "application/x-ndjson");
    if (!response.body) return 0;
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffered = "";
    let count = 0;
    const handle = (text: string) => {
      if (!text.trim()) return;
      let data: unknown;
      try {
        data = JSON.parse(text);
      } catch (cause) {
        throw handleTransportError(new ApiError(response.status, null, String(cause), path), quiet);
      }
      if (isErrorLine(data)) {
        throw handleTransportError(new ApiError(500, data.code, data.message, path), quiet);
      }
      options.onLine(parseWith(options.schema, data, response.status, path, quiet));
      count++;
    };
    try {
      for (;;) {
        const { done: isDone, value } = await reader.read();
        if (isDone) break;
        buffered += decoder.decode(value, { stream: true });
        let newline = buffered.indexOf("\n");
        while (newline >= 0) {
          handle(buffered.slice(0, newline));
          buffered = buffered.slice(newline + 1);
          newline = buffered.indexOf("\n");
        }
      }
      handle(buffered + decoder.decode());
    } catch (cause) {
      await reader.cancel().catch(() => undefined);
      throw cause;
    }
    return count;
  } finally {
    done();
  }
}

function isErrorLine(data: unknown): data is { code: string; message: string } {
  if (typeof data !== "object" || data === null) return false;
  const { code, message } = data as { code?: unknown; message?: unknown };
  return typeof code === "string" && typeof message === "string" && Object.keys(data).length <= 2;
}

/**
 * Downloads a file answer (an export or a stored file) and saves it under `fileName`. Failures go
 * through the same handling as {@link apiRequest}.
 */
export async function apiDownload<R extends ApiDownloadRoute>(
  route: R,
  fileName: string,
  ...[options = {} as DownloadOptions<R>]: OptionsArgs<DownloadOptions<R>>
): Promise<void> {
  const { method, path } = resolveRoute(route, options.params);
  const done = loadingStore.track();
  try {
    const response = await send(path, { ...options, method }, "*/*");
    saveBlob(await response.blob(), fileName);
  } finally {
    done();
  }
}

/** Options of {@link apiUpload}. */
export type UploadRequestOptions<R extends ApiUploadRoute> = ParamsOption<R> & UploadOptions<ApiAnswer<R>>;

interface UploadOptions<T> {
  /** Told the file's bytes sent so far and its size, as the browser sends them. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  schema?: z.ZodType<T>;
  /** The caller shows the failure itself (the upload form names the file); logging out still happens. */
  quiet?: boolean;
}

/**
 * Uploads a file as multipart field `file` with the token in the `Token` header (spec section 7).
 * XMLHttpRequest rather than fetch, because only it reports the bytes sent while the body goes out.
 * Failures are handled like {@link apiRequest}'s and thrown as ApiError.
 */
export function apiUpload<R extends ApiUploadRoute>(
  route: R,
  file: File,
  ...[options = {} as UploadRequestOptions<R>]: OptionsArgs<UploadRequestOptions<R>>
): Promise<ApiAnswer<R>> {
  const { path } = resolveRoute(route, options.params);
  const quiet = options.quiet ?? false;
  const done = loadingStore.track();
  return new Promise<ApiAnswer<R>>((resolve, reject) => {
    const request = new XMLHttpRequest();
    const fail = (error: ApiError) => reject(handleTransportError(error, quiet));
    request.open("POST", path);
    request.setRequestHeader("Accept", "application/json");
    const token = sessionStore.token();
    if (token) request.setRequestHeader("Token", token);
    request.upload.onprogress = (event) => {
      // The request carries a few hundred bytes of multipart framing around the file.
      options.onProgress?.(Math.min(event.loaded, file.size), file.size);
    };
    request.onload = () => {
      let data: unknown = null;
      try {
        data = request.responseText ? JSON.parse(request.responseText) : null;
      } catch {
        data = null;
      }
      if (request.status < 200 || request.status >= 300) {
        const body = (data ?? {}) as { code?: unknown; message?: unknown };
        const code = typeof body.code === "string" ? body.code : null;
        const message = typeof body.message === "string" ? body.message : request.statusText;
        fail(new ApiError(request.status, code, message, path));
        return;
      }
      try {
        resolve(parseWith(options.schema, data, request.status, path, quiet));
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => fail(new ApiError(0, null, "The upload could not reach the server", path));
    request.onabort = () => reject(new DOMException("The upload was cancelled", "AbortError"));
    options.signal?.addEventListener("abort", () => request.abort(), { once: true });
    const form = new FormData();
    form.append("file", file, file.name);
    request.send(form);
  }).finally(done);
}
