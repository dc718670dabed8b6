import type { FastifyRequest } from "fastify";

// Read-or-save routes (one POST reads a record with an empty body and changes it with fields)
// read the body to tell which they are.

/** Whether a read-or-change body carries a change: any field but the token. */
export function hasFields(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === "object" &&
    Object.keys(body as Record<string, unknown>).some((key) => key !== "token")
  );
}

/** `saves` for routes that read with an empty body and change with fields. */
export function savesWhenFields(request: FastifyRequest): boolean {
  return hasFields(request.body);
}
