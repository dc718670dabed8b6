import { z } from "zod";
import type { ValidationKey } from "./keys";

// Helpers shared by the validator files; not exported from the package.

/** A zod string schema that trims, then fails with the validator's key as its message. */
export function keyedString(validate: (value: string) => ValidationKey | null) {
  return z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      const key = validate(value);
      if (key !== null) ctx.addIssue({ code: "custom", message: key, input: value });
    });
}

/**
 * An integer from a form value: a number that is an integer, or a string of an optional sign and
 * digits. Anything else (fractions, exponents, empty text) answers null.
 */
export function toInteger(value: number | string): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  const text = value.trim();
  if (!/^[+-]?\d+$/.test(text)) return null;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed : null;
}
