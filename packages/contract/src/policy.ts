import type { ErrorCode } from "./errors";
import type { SecurityPolicy } from "./policySchemas";

/** Protection levels of a security policy: 0 Normal, 1 Enhanced, 2 High/Banking. */
export const POLICY_LEVELS = [0, 1, 2] as const;

/** Special symbols a password of an Enhanced or High policy must contain one of (spec section 5). */
export const PASSWORD_SPECIAL_SYMBOLS = "%*)?@#$~";

import { PASSWORD_DEFAULT_MIN_LENGTH, PASSWORD_MAX_LENGTH } from "./password-limits";

export { PASSWORD_DEFAULT_MIN_LENGTH, PASSWORD_MAX_LENGTH };

/** The default policy every domain starts with: Normal level, 8 characters, no expiry. */
export const DEFAULT_POLICY: Omit<SecurityPolicy, "_id"> = {
  name: "default",
  policy_level: 0,
  password_min_length: PASSWORD_DEFAULT_MIN_LENGTH,
  password_max_length: PASSWORD_MAX_LENGTH,
  admin_min_length: PASSWORD_DEFAULT_MIN_LENGTH,
  max_repeated_symbols: 0,
  repeated_combination_length: 0,
  repeated_combination_count: 0,
  expiration_days: 0,
  admin_expiration_days: 0,
  expiration_strategy: "block",
  attempts_before_temporary_block: 5,
  attempts_before_permanent_block: 0,
  temporary_block_minutes: 15,
  reauthentication: false,
  inactivity_minutes: 60,
  block_without_auth_days: 0,
  password_history: 3,
  second_factor_required_for: "nobody",
  second_factor_remember_days: 30,
  forbidden_sequences: [],
  forbidden_phrases: [],
  is_default: true,
};

/** The rules of a policy that judge a password's text. */
export type PasswordRules = Pick<
  SecurityPolicy,
  | "policy_level"
  | "password_min_length"
  | "password_max_length"
  | "admin_min_length"
  | "max_repeated_symbols"
  | "repeated_combination_length"
  | "repeated_combination_count"
  | "forbidden_sequences"
  | "forbidden_phrases"
>;

export interface PasswordCheckOptions {
  /** Admins and superusers must meet `admin_min_length` too. */
  isAdmin: boolean;
  /** The current password, when known, so a new one cannot be the same. */
  current?: string;
}

function longestRun(text: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    run = i > 0 && text[i] === text[i - 1] ? run + 1 : 1;
    longest = Math.max(longest, run);
  }
  return longest;
}

function hasRepeatedCombination(text: string, length: number, count: number): boolean {
  if (length < 2 || count < 2) return false;
  const seen = new Map<string, number>();
  for (let i = 0; i + length <= text.length; i++) {
    const part = text.slice(i, i + length).toLowerCase();
    const times = (seen.get(part) ?? 0) + 1;
    if (times >= count) return true;
    seen.set(part, times);
  }
  return false;
}

/**
 * Judges a password by a policy's rules; answers the first PASSWORD_* code it breaks, or null.
 * The same function runs in the browser's forms and on the server.
 */
export function checkPassword(
  password: string,
  rules: PasswordRules,
  options: PasswordCheckOptions,
): ErrorCode | null {
  const text = password.trim();
  if (text.length === 0) return "PASSWORD_INVALID";
  const min = Math.max(
    rules.password_min_length,
    options.isAdmin ? rules.admin_min_length : 0,
    rules.policy_level === 0 ? PASSWORD_DEFAULT_MIN_LENGTH : 0,
  );
  const max = Math.min(rules.password_max_length, PASSWORD_MAX_LENGTH);
  if (text.length < min) return "PASSWORD_INVALID_MIN_LENGTH";
  if (text.length > max) return "PASSWORD_INVALID_MAX_LENGTH";
  // Both sides trimmed, as stored passwords are: "secret " must not count as a new password for "secret".
  if (options.current !== undefined && text === options.current.trim())
    return "PASSWORD_INVALID_LIKE_CURRENT";
  if (rules.policy_level > 0) {
    if (!/[0-9]/.test(text)) return "PASSWORD_INVALID_NO_DIGITS";
    if (!/[a-z]/.test(text)) return "PASSWORD_INVALID_NO_LOWERCASE";
    if (!/[A-Z]/.test(text)) return "PASSWORD_INVALID_NO_CAPITALS";
    if (![...PASSWORD_SPECIAL_SYMBOLS].some((symbol) => text.includes(symbol))) {
      return "PASSWORD_INVALID_NO_SPECIAL_SYMBOLS";
    }
  }
  if (rules.max_repeated_symbols > 0 && longestRun(text) > rules.max_repeated_symbols) {
    return "PASSWORD_INVALID_REPEATED_SYMBOL";
  }
  if (hasRepeatedCombination(text, rules.repeated_combination_length, rules.repeated_combination_count)) {
    return "PASSWORD_INVALID_REPEATED_COMBINATION";
  }
  const lower = text.toLowerCase();
  if (rules.forbidden_sequences.some((entry) => entry.trim() && lower.includes(entry.trim().toLowerCase()))) {
    return "PASSWORD_INVALID_SEQUENCE";
  }
  if (rules.forbidden_phrases.some((entry) => entry.trim() && lower.includes(entry.trim().toLowerCase()))) {
    return "PASSWORD_INVALID_PHRASE";
  }
  return null;
}
