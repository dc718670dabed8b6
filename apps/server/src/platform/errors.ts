import { type ErrorBody, type ErrorCode, httpStatusForCode } from "@cellfleet/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

/** An error the client is meant to see: a contract code and a human-readable message. */
export class AppError extends Error {
  override name = "AppError";
  readonly code: ErrorCode;
  readonly statusCode: number;

  /**
   * `status` overrides the code's own HTTP status where the catalogue has no code of the transport's
   * meaning: a body too large is BAD_REQUEST answered 413, an unknown path OPERATION_IS_NOT_SUPPORTED 404.
   */
  constructor(code: ErrorCode, message: string = defaultMessage(code), options: { status?: number } = {}) {
    super(message);
    this.code = code;
    this.statusCode = options.status ?? httpStatusForCode(code);
  }
}

/** A readable default text for a code: `TOKEN_NOT_GIVEN` → `Token not given`. */
function defaultMessage(code: ErrorCode): string {
  const words = code.toLowerCase().replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isFastifyError(error: unknown): error is FastifyError {
  return error instanceof Error && "code" in error && typeof (error as FastifyError).code === "string";
}

interface IssueLike {
  path?: PropertyKey[];
  message?: string;
}

/** `a.b: message` for one zod issue, relative to `base`. */
function describeIssue(base: string, issue: IssueLike): string {
  const where = [base, ...(issue.path ?? []).map(String)].join(".");
  return `${where}: ${issue.message ?? "invalid"}`;
}

/** The first schema problem in words; a union lists what each alternative wanted. */
function describeValidation(
  context: string,
  first: { instancePath: string; message?: string; params: unknown },
): string {
  const base = [context, ...first.instancePath.split("/").filter(Boolean)].join(".");
  const branches = (first.params as { errors?: IssueLike[][] } | undefined)?.errors;
  if (Array.isArray(branches) && branches.length > 0) {
    const options = [
      ...new Set(branches.map((issues) => (issues[0] ? describeIssue(base, issues[0]) : base))),
    ];
    if (options.length === 1) return options[0];
    return `${base}: ${first.message ?? "invalid"} (${options.join("; or ")})`;
  }
  return `${base}: ${first.message ?? "invalid"}`;
}

/** An error answer: the `{ code, message }` body and its HTTP status. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
}

/** Unexpected failures: the catalogue's one server-side code (spec section 8 has no other). */
export const UNEXPECTED_ERROR: ErrorBody = { code: "WRITE_DATA_FAILED", message: "Internal server error" };

function answer(code: ErrorCode, message: string, status = httpStatusForCode(code)): ErrorAnswer {
  return { status, body: { code, message } };
}

/** PostgreSQL's refusals that are the caller's input, not the server's fault (SQLSTATE classes 22 and 23). */
function databaseInputRefusal(error: unknown): ErrorAnswer | null {
  const sqlState = (error as { code?: unknown } | null)?.code;
  if (typeof sqlState !== "string" || !/^2[23][0-9A-Z]{3}$/.test(sqlState)) return null;
  const detail = (error as { detail?: unknown }).detail;
  const column = typeof detail === "string" ? /Key \(([a-z_]+)\)/.exec(detail)?.[1] : undefined;
  const field = column ? `${column}: ` : "";
  if (sqlState === "23503") return answer("BAD_REQUEST", `${field}refers to nothing that exists`);
  if (sqlState === "23505") return answer("BAD_REQUEST", `${field}already taken`, 409);
  return answer("BAD_REQUEST", `${field}a value the database cannot take`);
}

/** Maps any thrown value to its answer; only AppErrors and known framework errors keep their text. */
export function toErrorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof AppError) return answer(error.code, error.message, error.statusCode);
  if (hasZodFastifySchemaValidationErrors(error)) {
    return answer("BAD_REQUEST", describeValidation(error.validationContext ?? "body", error.validation[0]));
  }
  if (isFastifyError(error)) {
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
        return answer("BAD_REQUEST", "The body is not valid JSON");
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return answer("BAD_REQUEST", "The body is empty but its content type is JSON");
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return answer("BAD_REQUEST", "The body is too large", 413);
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return answer("BAD_REQUEST", "Unsupported content type: send JSON (application/json)", 415);
      case "FST_ERR_VALIDATION":
        return answer("BAD_REQUEST", error.message);
    }
    // Body parsing failures that are not Fastify's own (e.g. JSON.parse's SyntaxError) carry a 4xx status.
    if (error.statusCode === 413) return answer("BAD_REQUEST", "The body is too large", 413);
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return answer("BAD_REQUEST", "Bad request", error.statusCode);
    }
  } else if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return answer("BAD_REQUEST", "The body is not valid JSON");
  }
  return databaseInputRefusal(error) ?? { status: 500, body: UNEXPECTED_ERROR };
}

/** Maps any thrown value to the `{ code, message }` body (streams that already answered 200). */
export function toErrorBody(error: unknown): ErrorBody {
  return toErrorAnswer(error).body;
}

/** Sends an error body with the status its code maps to (or `status` when given). */
export function sendError(
  reply: FastifyReply,
  body: ErrorBody,
  status = httpStatusForCode(body.code),
): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send(body);
}

/**
 * The one place errors become answers: every answer is `{ code, message }` with the status of
 * httpStatusForCode, and nothing about the server's insides (no stack, no driver text) leaks.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorAnswer(error);
    if (status >= 500 && !(error instanceof AppError)) {
      request.log.error({ err: error }, "request failed");
    } else if (!(error instanceof AppError)) {
      request.log.info({ code: body.code, reason: (error as Error).message }, "request rejected");
    }
    return sendError(reply, body, status);
  });
}
