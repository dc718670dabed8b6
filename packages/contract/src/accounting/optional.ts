import { z } from "zod";

/**
 * A field of a change body: absent stays absent (so it is not changed), null or blank becomes null
 * (cleared), anything else `schema` judges. Create bodies' `blankAsNull` turns absent into null,
 * which a change body must not do.
 */
export function optionalBlankAsNull<T extends z.ZodType>(schema: T) {
  return z
    .preprocess(
      (value) => (typeof value === "string" && value.trim() === "" ? null : value),
      schema.nullable(),
    )
    .optional();
}
