import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";

/** Deeper JSON than this is refused: no body of the API nests past a handful of levels. */
export const MAX_INPUT_DEPTH = 32;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be taken: PostgreSQL refuses NUL in text and jsonb, and a lone surrogate is not UTF-8. */
export function unstorableStringProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain the NUL character";
  if (LONE_SURROGATE.test(text)) return "must not contain a lone UTF-16 surrogate";
  return null;
}

function fieldName(path: readonly (string | number)[]): string {
  return path
    .map((part, index) => (typeof part === "number" ? `[${part}]` : index ? `.${part}` : part))
    .join("");
}

// A streamed body (device transfers) or a buffer is no input to look into; parsed JSON, the query
// (an object without Object.prototype) and params are.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object" || Buffer.isBuffer(value)) return false;
  return typeof (value as { pipe?: unknown }).pipe !== "function";
}

/**
 * The first field of `value` (keys included) the database could not store, as `body.a[2].b: why`,
 * or null. Walks with an explicit stack, so a deeply nested body cannot overflow the call stack.
 */
export function findUnstorableInput(root: string, value: unknown): string | null {
  const stack: { path: (string | number)[]; value: unknown }[] = [{ path: [root], value }];
  while (stack.length > 0) {
    const { path, value: current } = stack.pop() as { path: (string | number)[]; value: unknown };
    if (path.length - 1 > MAX_INPUT_DEPTH)
      return `${fieldName(path)}: nested deeper than ${MAX_INPUT_DEPTH} levels`;
    if (typeof current === "string") {
      const problem = unstorableStringProblem(current);
      if (problem) return `${fieldName(path)}: ${problem}`;
    } else if (Array.isArray(current)) {
      for (let index = 0; index < current.length; index++) {
        stack.push({ path: [...path, index], value: current[index] });
      }
    } else if (isPlainObject(current)) {
      for (const [key, entry] of Object.entries(current)) {
        const keyProblem = unstorableStringProblem(key);
        if (keyProblem) return `${fieldName(path)}: a key ${keyProblem}`;
        stack.push({ path: [...path, key], value: entry });
      }
    }
  }
  return null;
}

function checkRequest(request: FastifyRequest): void {
  const problem =
    findUnstorableInput("params", request.params) ??
    findUnstorableInput("query", request.query) ??
    findUnstorableInput("body", request.body);
  if (problem) throw new AppError("BAD_REQUEST", problem);
}

/**
 * Refuses, once for every route of the scope, input the database cannot store: NUL characters,
 * lone surrogates, and nesting past MAX_INPUT_DEPTH, in the path, the query or the body, with
 * BAD_REQUEST naming the field. Runs before validation, so no route and no audit entry sees them.
 */
export function installInputGuard(scope: FastifyInstance): void {
  scope.addHook("preValidation", async (request) => checkRequest(request));
}
