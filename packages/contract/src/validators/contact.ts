import { PHONE_MAX_LENGTH, PHONE_MIN_DIGITS, TIN_MIN_VALUE } from "../constants";
import { isBlank, type ValidationResult } from "./keys";
import { keyedString } from "./shared";

// An optional leading plus, then digits, spaces and dashes, with groups of them in (non-nested) parentheses.
const PHONE_PATTERN = /^\+?(?:[0-9 -]|\([0-9 -]+\))+$/;

/**
 * Phone: at most 24 characters; an optional leading `+`, then digits with optional dashes, spaces or
 * parentheses; at least 3 digits. Examples: "+7 (912) 345-67-89" valid, "12" invalid, "123" valid.
 */
export function validatePhone(
  value: string | null | undefined,
): ValidationResult<"required" | "phoneTooLong" | "phoneInvalid"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const text = value.trim();
  if (text.length > PHONE_MAX_LENGTH) return "phoneTooLong";
  if (!PHONE_PATTERN.test(text)) return "phoneInvalid";
  const digits = text.replace(/\D/g, "").length;
  return digits >= PHONE_MIN_DIGITS ? null : "phoneInvalid";
}

// Spec section 5, literally: letters, digits, - _ . then @, a domain, and a dot-separated lowercase
// TLD of 2+ letters. So "a+b@x.co" is rejected (no `+`) and "a@b.CO" too (upper-case TLD).
const EMAIL_PATTERN = /^[A-Za-z0-9._-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[a-z]{2,}$/;

/** Email: letters, digits, `- _ .`, then `@`, a domain and a lower-case TLD of 2+ letters. */
export function validateEmail(
  value: string | null | undefined,
): ValidationResult<"required" | "emailInvalid"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  return EMAIL_PATTERN.test(value.trim()) ? null : "emailInvalid";
}

/** Splits a cc/bcc text on commas and semicolons into trimmed, non-empty addresses. */
export function parseEmailList(value: string): string[] {
  return value
    .split(/[,;]/)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/**
 * A cc or bcc list: addresses separated by commas or semicolons, each a valid email. An empty list
 * is valid, since cc and bcc are optional.
 */
export function validateEmailList(value: string | null | undefined): ValidationResult<"emailListInvalid"> {
  if (value === null || value === undefined) return null;
  return parseEmailList(value).every((address) => validateEmail(address) === null)
    ? null
    : "emailListInvalid";
}

/**
 * TIN: digits only, with a value of at least 100000000 (so "99999999" is invalid and "100000000"
 * valid); message 'TIN must contain 9 or more digits'.
 */
export function validateTin(
  value: string | number | null | undefined,
): ValidationResult<"required" | "tinDigits"> {
  if (value === null || value === undefined || isBlank(value)) return "required";
  const text = String(value).trim();
  if (!/^\d+$/.test(text)) return "tinDigits";
  return Number(text) >= TIN_MIN_VALUE ? null : "tinDigits";
}

/** A phone number, trimmed; see {@link validatePhone}. */
export const PhoneSchema = keyedString(validatePhone);
/** An email address, trimmed; see {@link validateEmail}. */
export const EmailSchema = keyedString(validateEmail);
/** A cc/bcc text, trimmed; see {@link validateEmailList}. Split it with {@link parseEmailList}. */
export const EmailListSchema = keyedString(validateEmailList);
/** A TIN as a string of digits, trimmed; see {@link validateTin}. */
export const TinSchema = keyedString(validateTin);
