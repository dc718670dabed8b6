import { RoleSchema } from "../roles";
import type { ValidationResult } from "./keys";

/** A user role must be chosen: one of 1..4 (spec section 5). */
export function validateRole(value: unknown): ValidationResult<"roleRequired"> {
  return RoleSchema.safeParse(value).success ? null : "roleRequired";
}

/** Registration needs consent to the personal-data terms. */
export function validateConsent(value: boolean | null | undefined): ValidationResult<"consentRequired"> {
  return value === true ? null : "consentRequired";
}

// Characters that make a pattern a regular expression rather than a list of plain alternatives.
const REGEX_SYNTAX = /[\\^$.*+?()[\]{}]/;

/**
 * The options of a monitor variable whose pattern is plain alternatives separated by `|`
 * ("hours|days" gives ["hours", "days"]); the web shows those as a select. Null when the pattern is
 * a regular expression or has no `|`.
 */
export function monitorVariableOptions(pattern: string): string[] | null {
  if (!pattern.includes("|") || REGEX_SYNTAX.test(pattern)) return null;
  const options = pattern.split("|").map((option) => option.trim());
  return options.every((option) => option.length > 0) ? options : null;
}

/**
 * A monitor variable must match its pattern as a whole. A pattern that is not a valid regular
 * expression is the server's configuration fault, so it does not block the form.
 */
export function validateMonitorVariable(value: string, pattern: string): ValidationResult<"patternMismatch"> {
  let expression: RegExp;
  try {
    expression = new RegExp(`^(?:${pattern})$`);
  } catch {
    return null;
  }
  return expression.test(value) ? null : "patternMismatch";
}
