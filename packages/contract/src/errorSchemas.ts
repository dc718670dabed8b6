// Apart from errors.ts so that the error codes come without zod (ADR 018).
import { z } from "zod";
import { ERROR_CODES } from "./errors";

export const ErrorCodeSchema = z.enum(ERROR_CODES);

/** The body of every error answer: `{ code, message }`, never a stack trace. */
export const ErrorBodySchema = z.object({ code: ErrorCodeSchema, message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
