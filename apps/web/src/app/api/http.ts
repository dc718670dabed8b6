import type { z } from "zod";
import { loadingStore } from "../loading/loadingStore";
import { sessionStore } from "../session/sessionStore";
import { ApiError } from "./ApiError";
import { handleTransportError } from "./handleTransportError";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface RequestOptions<T> {
  method?: HttpMethod;
  /** JSON body of a non-GET call; the token is added to it. */
  body?: Record<string, unknown>;
  signal?: AbortSignal;
  /** Validates the answer; a mismatch is reported like a server error. */
  schema?: z.ZodType<T>;
  /**
   * The caller shows errors itself (a form next to its fields). Logging out on a dead session
   * still happens; only the info message is left out.
   */
  quiet?: boolean;
}

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

/**
 * The one way the web talks to the API (spec section 7): the token goes in the `Token` header on
 * every call and also in the JSON body on non-GET calls. Errors are handled here, once, by the
 * decision table of spec section 8, and then thrown as ApiError for the caller's own state.
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const method = options.method ?? "POST";
  const token = sessionStore.token();
  const headers: Record<string, string> = { Accept: "application/json" };
  if (token) headers.Token = token;
  let payload: string | undefined;
  if (method !== "GET") {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(token ? { ...options.body, token } : (options.body ?? {}));
  }

  const done = loadingStore.track();
  try {
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body: payload, signal: options.signal });
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw handleTransportError(new ApiError(0, null, String(cause), path), options.quiet ?? false);
    }
    if (!response.ok) {
      const { code, message } = await readErrorBody(response);
      throw handleTransportError(new ApiError(response.status, code, message, path), options.quiet ?? false);
    }
    const data: unknown = response.status === 204 ? null : await response.json();
    if (!options.schema) return data as T;
    const parsed = options.schema.safeParse(data);
    if (!parsed.success) {
      const error = new ApiError(response.status, null, parsed.error.message, path);
      throw handleTransportError(error, options.quiet ?? false);
    }
    return parsed.data;
  } finally {
    done();
  }
}
