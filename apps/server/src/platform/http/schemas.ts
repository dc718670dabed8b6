import { ErrorBodySchema } from "@cellfleet/contract";
import { z } from "zod";

/**
 * The token may travel in a non-GET body. The session guard takes it out before the body is
 * validated; declaring it here only documents it in the OpenAPI description.
 */
export const TokenFieldSchema = z.string().optional().describe("Session token (or send the Token header)");

/** The body of calls that carry nothing but, optionally, the token (Fastify gives null for no body). */
export const TokenOnlyBodySchema = z.object({ token: TokenFieldSchema }).nullish();

/** `{ ok: true }`, the answer of calls that have nothing else to say. */
export const OkSchema = z.object({ ok: z.literal(true) });

/** Error answers, for the OpenAPI description: always `{ code, message }`. */
export const ERROR_RESPONSES = { "4xx": ErrorBodySchema, "5xx": ErrorBodySchema } as const;
