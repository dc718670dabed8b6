/** A failed API call: the HTTP status (0 when no answer came), the server's code and message, and the path. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly path: string;

  constructor(status: number, code: string | null, message: string, path: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.path = path;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
