import { PASSWORD_CHANGE_BLOCK_MS } from "../constants";
import type { ErrorCode } from "../errors";
import { checkPassword, type PasswordCheckOptions, type PasswordRules } from "../policy";
import { isBlank, type ValidationResult } from "./keys";

/** The PASSWORD_INVALID* codes that judge a password's text (what {@link checkPassword} answers). */
export type PasswordErrorCode = Extract<ErrorCode, `PASSWORD_INVALID${string}`>;

/**
 * A password field judged by a policy (spec section 5): "required" when empty after trimming,
 * otherwise the first PASSWORD_* code of `checkPassword` (level 0: min 8; levels 1 and 2 also need a
 * digit, a lower-case and an upper-case Latin letter and a special symbol), or null.
 */
export function validatePassword(
  password: string | null | undefined,
  rules: PasswordRules,
  options: PasswordCheckOptions,
): ValidationResult<"required" | PasswordErrorCode> {
  if (password === null || password === undefined || isBlank(password)) return "required";
  return checkPassword(password, rules, options) as PasswordErrorCode | null;
}

/** The confirmation must equal the password exactly ('Passwords do not match!'). */
export function checkPasswordConfirmation(
  password: string | null | undefined,
  confirmation: string | null | undefined,
): ValidationResult<"passwordsDoNotMatch"> {
  return (password ?? "") === (confirmation ?? "") ? null : "passwordsDoNotMatch";
}

/**
 * A password cannot be changed again for 5 minutes after a change. `lastChangedMs` is when the person
 * last chose it (ms since the epoch), or null when they never did (a factory password).
 */
export function checkPasswordChangeAllowed(
  lastChangedMs: number | null,
  nowMs: number,
): "PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES" | null {
  if (lastChangedMs === null) return null;
  return nowMs - lastChangedMs < PASSWORD_CHANGE_BLOCK_MS ? "PASSWORD_CHANGE_NOT_ALLOWED_5_MINUTES" : null;
}
