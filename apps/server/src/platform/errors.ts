import { type ErrorBody, type ErrorCode, httpStatusForCode } from "@cellfleet/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";

/** An error the client is meant to see: a contract code and a human-readable message. */
export class AppError extends Error {
  override name = "AppError";
  readonly code: ErrorCode;
  readonly statusCode: number;

  constructor(code: ErrorCode, message: string = defaultMessage(code)) {
    super(message);
    this.code = code;
    this.statusCode = httpStatusForCode(code);
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

/** Maps any thrown value to the `{ code, message }` body; only AppErrors and known framework errors keep their text. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof AppError) return { code: error.code, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    return {
      code: "BAD_REQUEST",
      message: describeValidation(error.validationContext ?? "body", error.validation[0]),
    };
  }
  if (isFastifyError(error)) {
    switch (error.code) {
      case "FST_ERR_CTP_INVALID_JSON_BODY":
        return { code: "BAD_REQUEST", message: "The body is not valid JSON" };
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return { code: "BAD_REQUEST", message: "The body is empty but its content type is JSON" };
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return { code: "PAYLOAD_TOO_LARGE", message: "The body is too large" };
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return { code: "BAD_REQUEST", message: "Unsupported content type" };
      case "FST_ERR_VALIDATION":
        return { code: "BAD_REQUEST", message: error.message };
    }
    // Body parsing failures that are not Fastify's own (e.g. JSON.parse's SyntaxError) carry a 4xx status.
    if (error.statusCode === 413) return { code: "PAYLOAD_TOO_LARGE", message: "The body is too large" };
    if (error.statusCode === 404) return { code: "NOT_FOUND", message: "Not found" };
    if (error.statusCode === 429) return { code: "TOO_MANY_REQUESTS", message: "Too many requests" };
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      return { code: "BAD_REQUEST", message: "Bad request" };
    }
  } else if (error instanceof SyntaxError && (error as { statusCode?: number }).statusCode === 400) {
    return { code: "BAD_REQUEST", message: "The body is not valid JSON" };
  }
  return { code: "INTERNAL_ERROR", message: "Internal server error" };
}

/** Sends an error body with the status its code maps to. */
export function sendError(reply: FastifyReply, body: ErrorBody): FastifyReply {
  return reply.code(httpStatusForCode(body.code)).type("application/json; charset=utf-8").send(body);
}

/**
 * The one place errors become answers: every answer is `{ code, message }` with the status of
 * httpStatusForCode, and nothing about the server's insides (no stack, no driver text) leaks.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const body = toErrorBody(error);
    if (body.code === "INTERNAL_ERROR") {
      request.log.error({ err: error }, "request failed");
    } else if (!(error instanceof AppError)) {
      request.log.info({ code: body.code, reason: (error as Error).message }, "request rejected");
    }
    return sendError(reply, body);
  });
}
